// Hide the console window on Windows release builds; the app is a GUI program.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

// The one `unsafe` of the project: setting WebKit's renderer variable before any thread exists
// (see `disable_dmabuf_renderer_without_gpu`; the architecture test keeps it the only one).
#[allow(unsafe_code)]
fn main() {
    // SAFETY: the first statement of `main`: no other thread has been started yet.
    #[cfg(target_os = "linux")]
    unsafe {
        compute_planner_lib::disable_dmabuf_renderer_without_gpu();
    }
    compute_planner_lib::run();
}
