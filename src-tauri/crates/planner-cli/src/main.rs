//! `planner`: Compute Planner without a window.
//!
//! Every subcommand calls the same library functions as the desktop app; this file only parses
//! arguments, prints, and maps errors to exit codes (0 success, 1 refused input or failed check,
//! 2 usage).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use planner_core::catalog::CatalogKind;
use planner_core::error::PlannerError;

mod catalog_cmd;
mod evaluate;
mod workspace_cmd;

#[derive(Debug, Parser)]
#[command(
    name = "planner",
    version,
    about = "Plan AI compute purchases: catalogs, scenarios, memos"
)]
struct Cli {
    /// The catalog folder (accelerators.toml, offers.toml, ...).
    #[arg(long, global = true, env = "PLANNER_CATALOG", default_value = "catalogs")]
    catalog: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Browse and validate the reference catalogs.
    Catalog {
        #[command(subcommand)]
        command: CatalogCommand,
    },
    /// Evaluate every scenario of a scenario file: totals, and with --json the monthly ledger.
    Evaluate {
        /// The scenario file (JSON, see catalogs/samples/README.md).
        file: PathBuf,
        /// Print the full result as JSON, ledger included.
        #[arg(long)]
        json: bool,
        /// Override the file's horizon (1 to 120 months).
        #[arg(long)]
        horizon: Option<u32>,
    },
    /// The decision figures of every scenario of a file, side by side, with break-even points.
    Compare {
        /// The scenario file (JSON).
        file: PathBuf,
    },
    /// Workspace files (.cpw): create, show, export, check.
    Workspace {
        #[command(subcommand)]
        command: WorkspaceCommand,
    },
}

#[derive(Debug, Subcommand)]
enum WorkspaceCommand {
    /// Create a workspace with a snapshot of the catalog, optionally from a scenario file.
    New {
        /// The workspace file to create (it must not exist).
        out: PathBuf,
        /// The workspace title (default: the scenario file's title).
        #[arg(long)]
        title: Option<String>,
        /// A scenario file (JSON) whose settings, workloads and scenarios to take.
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Print what a workspace holds.
    Show { file: PathBuf },
    /// Write a workspace's settings, workloads and scenarios as a scenario file (JSON).
    Export {
        file: PathBuf,
        /// Where to write (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run SQLite's integrity check on a workspace; exits 1 when it fails.
    Check { file: PathBuf },
}

#[derive(Debug, Subcommand)]
enum CatalogCommand {
    /// Print the catalog (all kinds, or one), as a table or as JSON with every figure's provenance.
    List {
        #[arg(long, value_enum)]
        kind: Option<KindArg>,
        #[arg(long)]
        json: bool,
    },
    /// Validate a catalog folder; exits 1 and lists every error when it is not valid.
    Check {
        /// The folder to check.
        dir: PathBuf,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum KindArg {
    Accelerators,
    Offers,
    Facility,
    Fabrics,
    Regions,
}

impl From<KindArg> for CatalogKind {
    fn from(k: KindArg) -> CatalogKind {
        match k {
            KindArg::Accelerators => CatalogKind::Accelerators,
            KindArg::Offers => CatalogKind::Offers,
            KindArg::Facility => CatalogKind::Facility,
            KindArg::Fabrics => CatalogKind::Fabrics,
            KindArg::Regions => CatalogKind::Regions,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Catalog { command } => match command {
            CatalogCommand::List { kind, json } => catalog_cmd::list(&cli.catalog, kind.map(Into::into), json),
            CatalogCommand::Check { dir } => catalog_cmd::check(&dir),
        },
        Command::Evaluate { file, json, horizon } => {
            planner_store::load_catalog_dir(&cli.catalog).and_then(|c| evaluate::evaluate(&c, &file, json, horizon))
        }
        Command::Compare { file } => {
            planner_store::load_catalog_dir(&cli.catalog).and_then(|c| evaluate::compare(&c, &file))
        }
        Command::Workspace { command } => match command {
            WorkspaceCommand::New { out, title, from } => {
                workspace_cmd::new(&cli.catalog, &out, title.as_deref(), from.as_deref())
            }
            WorkspaceCommand::Show { file } => workspace_cmd::show(&cli.catalog, &file),
            WorkspaceCommand::Export { file, out } => workspace_cmd::export(&file, out.as_deref()),
            WorkspaceCommand::Check { file } => workspace_cmd::check(&file),
        },
    };
    match outcome {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprint!("{}", render_error(&err));
            ExitCode::FAILURE
        }
    }
}

/// The boundary error as a person reads it: the message, then one line per located detail.
fn render_error(err: &PlannerError) -> String {
    let mut out = format!("error: {}\n", err.message);
    for d in &err.details {
        let location = match (&d.file, d.line, d.column) {
            (Some(f), Some(l), Some(c)) if l > 0 => format!("{f}:{l}:{c}"),
            (Some(f), _, _) => f.clone(),
            _ => String::new(),
        };
        let field = d.field.as_deref().filter(|f| !f.is_empty()).unwrap_or("-");
        let kind = d.kind.as_deref().map(|k| format!(" [{k}]")).unwrap_or_default();
        out.push_str(&format!("  {location}: {field}{kind}: {}\n", d.message));
    }
    out
}
