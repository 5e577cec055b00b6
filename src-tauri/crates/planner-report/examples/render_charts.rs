//! Writes the charts of every sample (and of an eight-scenario comparison) as SVG files, to look
//! at them: `cargo run -p planner-report --example render_charts -- OUT_DIR [WIDTH HEIGHT]`.

// A developer tool: a failure should stop it with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/common/mod.rs"]
mod common;

use planner_report::charts::{ChartSize, Theme, cumulative_svg, monthly_svg};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = std::path::PathBuf::from(args.first().expect("usage: render_charts OUT_DIR [WIDTH HEIGHT]"));
    let size = match (args.get(1), args.get(2)) {
        (Some(w), Some(h)) => ChartSize {
            width: w.parse().expect("WIDTH"),
            height: h.parse().expect("HEIGHT"),
        },
        _ => ChartSize::default(),
    };
    std::fs::create_dir_all(&out).expect("OUT_DIR");
    let mut views = vec![];
    for name in [
        "embodied-ai-team",
        "enterprise-hybrid",
        "startup-inference-saas",
        "student-lora-rtx4090",
        "university-lab-pool",
    ] {
        views.push((name.to_owned(), common::sample(name).1));
    }
    views.push((
        "eight".to_owned(),
        common::evaluate_text(&common::eight_scenarios_text(), None).1,
    ));
    for (name, view) in &views {
        for (theme, t) in [(Theme::Light, "light"), (Theme::Dark, "dark")] {
            match cumulative_svg(view, theme, size) {
                Ok(svg) => std::fs::write(out.join(format!("{name}-cumulative-{t}.svg")), svg).expect("write"),
                Err(e) => eprintln!("{name}: {e}"),
            }
            for s in &view.scenarios {
                match monthly_svg(view, &s.id, theme, size) {
                    Ok(svg) => {
                        std::fs::write(out.join(format!("{name}-monthly-{}-{t}.svg", s.id)), svg).expect("write")
                    }
                    Err(e) => eprintln!("{name}/{}: {e}", s.id),
                }
            }
        }
    }
    println!("wrote the charts of {} comparisons to {}", views.len(), out.display());
}
