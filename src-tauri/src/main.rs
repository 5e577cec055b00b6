// Hide the console window on Windows release builds; the app is a GUI program.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    compute_planner_lib::run();
}
