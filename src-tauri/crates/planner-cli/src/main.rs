//! `planner`: Compute Planner without a window.
//!
//! Every subcommand calls the same library functions as the desktop app; this file only parses
//! arguments, prints, and maps errors to exit codes (0 success, 1 refused input or failed check,
//! 2 usage).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use planner_core::catalog::CatalogKind;
use planner_core::error::PlannerError;
use planner_core::memo::Paper;

mod audit_cmd;
mod catalog_cmd;
mod evaluate;
mod exit_cmd;
mod host;
mod memo_cmd;
mod operations_cmd;
mod pack_cmd;
mod quotes_cmd;
mod risk_cmd;
mod sample_cmd;
mod scorecard_cmd;
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
    /// The spread of each scenario's decision total when the ranged catalog figures it uses are
    /// drawn (Latin hypercube, seeded): P10, P50, P90, mean, and the chance it is cheaper than the
    /// baseline.
    Risk {
        /// A scenario file (JSON: its scenarios on the catalog folder) or a workspace (.cpw: the
        /// compare screen's selection, horizon and baseline on its own catalog snapshot, opened
        /// read-only).
        file: PathBuf,
        /// How many draws (1 to 100,000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        draws: u32,
        /// The seed: the same seed gives the same draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The scenario the others are compared with (default: the first).
        #[arg(long)]
        baseline: Option<String>,
        /// The distribution of each ranged figure, its mode at the plan's price point.
        #[arg(long, value_enum, default_value_t = RiskShape::Triangular)]
        shape: RiskShape,
        /// How strongly the cloud rates of one provider move together (0 to 1).
        #[arg(long, default_value_t = 0.8, value_parser = correlation)]
        correlation: f64,
        /// A figure of the file to draw too, `PATH=LOW..HIGH` by ids, e.g.
        /// `workloads/training/gpu_hours_per_day=400..900` (repeat for more; its mode is the
        /// file's value). Demand, growth, MFU, lead time, spot interruptions, an override's value.
        #[arg(long = "vary", value_parser = uncertain)]
        vary: Vec<planner_core::engine::risk::drivers::Uncertain>,
        /// Print the whole outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Workspace files (.cpw): create, show, export, check.
    Workspace {
        #[command(subcommand)]
        command: WorkspaceCommand,
    },
    /// Write the decision memo (PDF) of a workspace or a scenario file, optionally signed.
    Memo(MemoCli),
    /// Add a signature (e.g. a reviewer's) to a PDF, keeping the earlier signatures valid.
    Sign {
        pdf: PathBuf,
        /// The PKCS#12 identity (.p12) to sign with.
        #[arg(long = "with")]
        with: PathBuf,
        /// The environment variable holding the identity's passphrase.
        #[arg(long)]
        passphrase_env: Option<String>,
        #[arg(long, default_value = "Reviewer")]
        reason: String,
        /// Record the signature in this workspace too.
        #[arg(long)]
        workspace: Option<PathBuf>,
    },
    /// Check every signature of a PDF; exits 0 only when there is one and every one is intact.
    Verify {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Signing identities (PKCS#12).
    Identity {
        #[command(subcommand)]
        command: IdentityCommand,
    },
    /// What leaving a reserved contract or a lease costs if notice is given in each month of its
    /// term; with --variant, one way out (leave a reservation, scale down, downgrade, leave a
    /// lease, sell early) priced against staying.
    Exit(ExitCli),
    /// The tamper-evident checklist log of a workspace.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// The vendor scorecard of a workspace: costs, compliance, axis scores, the ranking, how
    /// stable it is, and the vendors not ranked or not reviewed.
    Scorecard {
        /// The workspace (.cpw).
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// What each scenario's plan does: who serves which workload each month (GPU-hours per
    /// layer, unmet demand, idle owned hours), delivery and the bridge before it, spot checkpoint
    /// arithmetic, and the GPUs and time the work needs.
    Plan {
        /// The scenario file (JSON).
        file: PathBuf,
        /// Only this scenario (by id).
        #[arg(long)]
        scenario: Option<String>,
        /// Print each scenario's plan as JSON.
        #[arg(long)]
        json: bool,
    },
    /// RFP vendor quotes (CSV or XLSX, see catalogs/templates/README.md).
    Quotes {
        #[command(subcommand)]
        command: QuotesCommand,
    },
}

#[derive(Debug, Subcommand)]
enum AuditCommand {
    /// Check every entry's hash, link and evidence; exits 1 and names the first broken entry.
    Verify {
        /// The workspace (.cpw).
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List the log's entries, oldest first.
    Log { file: PathBuf },
}

#[derive(Debug, Subcommand)]
enum QuotesCommand {
    /// Read and check a quote file as the import will; exits 1 and names the row and column of
    /// every error. Nothing is written.
    Check {
        file: PathBuf,
        /// Check against this workspace's catalog snapshot, currency and exchange rates.
        #[arg(long)]
        workspace: Option<PathBuf>,
        /// Print the quotes and the layers they become as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum IdentityCommand {
    /// Make a P-256 key with a self-signed certificate, stored as a PKCS#12 file encrypted with
    /// the passphrase.
    New {
        #[arg(long)]
        name: String,
        #[arg(long)]
        org: String,
        #[arg(long)]
        email: Option<String>,
        #[arg(long)]
        out: PathBuf,
        /// The environment variable holding the passphrase (at least 8 characters).
        #[arg(long)]
        passphrase_env: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum PaperArg {
    A4,
    Letter,
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
    /// Build a sample workspace from its recipe (catalogs/samples/recipes/*.toml, see
    /// catalogs/samples/README.md) with the app's own use cases.
    Sample {
        /// The recipe (TOML).
        recipe: PathBuf,
        /// The workspace file to create (it must not exist).
        #[arg(long)]
        out: PathBuf,
    },
    /// Lock the workspace's compared set (its compare view, at least two scenarios) as the
    /// workshop baseline: until unlocked, changes that would move those scenarios' figures are
    /// refused, and differences are taken against its baseline (the pinned one, else the first).
    Lock { file: PathBuf },
    /// Unlock the workspace's baseline, so its scenarios can be edited again.
    Unlock { file: PathBuf },
    /// Run SQLite's integrity check on a workspace; exits 1 when it fails.
    Check { file: PathBuf },
    /// Save a compacted copy of a workspace under a new name (which must not exist), undo
    /// journal included; works on a workspace open read-only.
    SaveAs {
        file: PathBuf,
        /// The copy to write.
        out: PathBuf,
    },
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
    /// Validate a catalog folder and its checklist template (checklists/d1-compliance.toml, when
    /// present); exits 1 and lists every error when either is not valid.
    Check {
        /// The folder to check.
        dir: PathBuf,
    },
    /// Make a publisher key pair (minisign format): PREFIX.pub to hand out, PREFIX.key to keep offline.
    Keygen {
        #[arg(long)]
        out: PathBuf,
        /// The environment variable holding a passphrase to encrypt the secret key with.
        #[arg(long)]
        passphrase_env: Option<String>,
    },
    /// Build a signed catalog pack (.cpack) from a catalog folder.
    Pack {
        dir: PathBuf,
        /// The publisher's minisign secret key file.
        #[arg(long)]
        sign_with: PathBuf,
        /// The environment variable holding the secret key's passphrase (for an encrypted key).
        #[arg(long)]
        passphrase_env: Option<String>,
        /// The publisher's name, as users will see it.
        #[arg(long)]
        publisher: String,
        /// The pack's date (YYYY-MM-DD; default: today, UTC).
        #[arg(long)]
        date: Option<String>,
        /// What changed, in the publisher's words.
        #[arg(long)]
        note: Option<String>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Check a pack: signature by a trusted key, every file's SHA-256, the catalog; exits 1 if refused.
    Verify {
        file: PathBuf,
        /// A publisher's public key file to trust besides the shipped one (repeatable).
        #[arg(long)]
        trust: Vec<PathBuf>,
    },
    /// Every figure that differs between two catalogs (folders or packs), old → new with sources.
    Diff {
        old: PathBuf,
        new: PathBuf,
        #[arg(long)]
        trust: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Show what a pack changes in a workspace, then apply it as one undo step.
    Apply {
        file: PathBuf,
        #[arg(long)]
        workspace: PathBuf,
        #[arg(long)]
        trust: Vec<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum KindArg {
    Accelerators,
    Offers,
    Facility,
    Fabrics,
    Regions,
    Tax,
    Market,
}

impl From<KindArg> for CatalogKind {
    fn from(k: KindArg) -> CatalogKind {
        match k {
            KindArg::Accelerators => CatalogKind::Accelerators,
            KindArg::Offers => CatalogKind::Offers,
            KindArg::Facility => CatalogKind::Facility,
            KindArg::Fabrics => CatalogKind::Fabrics,
            KindArg::Regions => CatalogKind::Regions,
            KindArg::Tax => CatalogKind::Tax,
            KindArg::Market => CatalogKind::Market,
        }
    }
}

#[derive(Debug, clap::Args)]
struct MemoCli {
    /// A workspace (.cpw: its memo draft is used and the memo is recorded in it) or a
    /// scenario file (JSON: give --author and --decision).
    file: PathBuf,
    /// The scenarios to compare, by id, comma separated (default: the workspace's memo
    /// draft or compare screen; all of a scenario file's).
    #[arg(long, value_delimiter = ',')]
    scenarios: Option<Vec<String>>,
    /// Where to write the PDF.
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    author: Option<String>,
    #[arg(long)]
    client: Option<String>,
    /// What was decided, in a sentence or two.
    #[arg(long)]
    decision: Option<String>,
    /// Why; separate paragraphs with a blank line.
    #[arg(long)]
    rationale: Option<String>,
    /// The scenario the decision adopts (differences are taken against it).
    #[arg(long)]
    recommended: Option<String>,
    #[arg(long, value_enum)]
    paper: Option<PaperArg>,
    /// Sign the memo with this PKCS#12 identity (.p12).
    #[arg(long)]
    sign_with: Option<PathBuf>,
    /// The environment variable holding the identity's passphrase.
    #[arg(long)]
    passphrase_env: Option<String>,
    /// The reason written into the signature (default: Author).
    #[arg(long)]
    reason: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ExitCli {
    /// The scenario file (JSON).
    file: PathBuf,
    #[arg(long)]
    scenario: String,
    /// The reserved layer to leave.
    #[arg(long)]
    layer: String,
    /// Months between notice and the exit taking effect (payments fall due meanwhile). Without
    /// any clause flag, the layer's own `exit_clause` from the file is used; with --variant, the
    /// clause flags replace the layer's clause for that pricing.
    #[arg(long)]
    notice: Option<u32>,
    /// The termination fee: `25%` of the commitment remaining after the notice, or a fixed amount.
    #[arg(long)]
    fee: Option<String>,
    /// Egress price per TB, and the TB to move out.
    #[arg(long)]
    egress_per_tb: Option<String>,
    #[arg(long)]
    data_tb: Option<String>,
    /// One-off offboarding cost.
    #[arg(long)]
    offboarding: Option<String>,
    /// Price one way out against staying instead of the curve: leave-reservation, scale-down,
    /// downgrade, leave-lease or sell-early (with --month and the flags below).
    #[arg(long)]
    variant: Option<String>,
    /// The plan month (0 = the first) notice is given or the hardware leaves.
    #[arg(long)]
    month: Option<u32>,
    /// scale-down: the GPUs kept.
    #[arg(long)]
    gpus: Option<u32>,
    /// downgrade: the catalog offer that takes over, its kind (default on-demand) and reserved term.
    #[arg(long)]
    to_offer: Option<String>,
    #[arg(long)]
    to_kind: Option<String>,
    #[arg(long)]
    to_term: Option<String>,
    /// downgrade: the GPUs the new layer commits to (required when it is reserved).
    #[arg(long)]
    to_gpus: Option<u32>,
    /// sell-early: a quoted resale share (default: the layer's or the catalog's at that age) and why.
    #[arg(long)]
    residual_share: Option<String>,
    #[arg(long)]
    reason: Option<String>,
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli.catalog, cli.command) {
        Ok((text, passed)) => {
            print!("{text}");
            if passed { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(err) => {
            eprint!("{}", render_error(&err));
            ExitCode::FAILURE
        }
    }
}

/// The memo command: the draft's fields from the flags, then the memo.
fn memo(catalog: &Path, m: MemoCli) -> Result<String, PlannerError> {
    memo_cmd::memo(
        catalog,
        &m.file,
        &memo_cmd::MemoArgs {
            scenarios: m.scenarios,
            out: m.out,
            author: m.author,
            client: m.client,
            decision: m.decision,
            rationale: m.rationale,
            recommended: m.recommended,
            paper: m.paper.map(|p| match p {
                PaperArg::A4 => Paper::A4,
                PaperArg::Letter => Paper::Letter,
            }),
            sign_with: m.sign_with,
            passphrase_env: m.passphrase_env,
            reason: m.reason,
        },
    )
}

/// The exit command: one way out priced against staying (`--variant`), or the clause from the
/// flags, then the curve.
fn exit(catalog: &Path, e: ExitCli) -> Result<String, PlannerError> {
    let c = planner_app::catalog::load(catalog)?;
    let clause = exit_cmd::ClauseArgs {
        notice_months: e.notice,
        fee: e.fee,
        egress_per_tb: e.egress_per_tb,
        data_tb: e.data_tb,
        offboarding: e.offboarding,
    };
    if let Some(kind) = e.variant {
        let v = exit_cmd::VariantArgs {
            kind,
            month: e.month,
            gpus: e.gpus,
            to_offer: e.to_offer,
            to_kind: e.to_kind,
            to_term: e.to_term,
            to_gpus: e.to_gpus,
            clause,
            residual_share: e.residual_share,
            reason: e.reason,
        };
        return exit_cmd::variant(&c, &e.file, &e.scenario, &e.layer, &v, e.json);
    }
    exit_cmd::curve(&c, &e.file, &e.scenario, &e.layer, &clause, e.json)
}

/// Runs one command: the text to print and whether its check passed (a verification that finds
/// a broken signature or log is a result, not an error).
fn run(catalog: &Path, command: Command) -> Result<(String, bool), PlannerError> {
    let text = match command {
        Command::Catalog { command } => match command {
            CatalogCommand::List { kind, json } => catalog_cmd::list(catalog, kind.map(Into::into), json),
            CatalogCommand::Check { dir } => catalog_cmd::check(&dir),
            CatalogCommand::Keygen { out, passphrase_env } => pack_cmd::keygen(&out, passphrase_env.as_deref()),
            CatalogCommand::Pack {
                dir,
                sign_with,
                passphrase_env,
                publisher,
                date,
                note,
                out,
            } => pack_cmd::pack(
                catalog,
                &planner_app::publishing::PackRequest {
                    dir: &dir,
                    secret_key: &sign_with,
                    passphrase: None,
                    publisher: &publisher,
                    date: date.as_deref(),
                    note: note.as_deref(),
                    out: &out,
                },
                passphrase_env.as_deref(),
            ),
            CatalogCommand::Verify { file, trust } => pack_cmd::verify(&file, &trust),
            CatalogCommand::Diff { old, new, trust, json } => pack_cmd::diff_cmd(&old, &new, &trust, json),
            CatalogCommand::Apply { file, workspace, trust } => pack_cmd::apply(catalog, &file, &workspace, &trust),
        },
        Command::Evaluate { file, json, horizon } => {
            planner_app::catalog::load(catalog).and_then(|c| evaluate::evaluate(&c, &file, json, horizon))
        }
        Command::Compare { file } => planner_app::catalog::load(catalog).and_then(|c| evaluate::compare(&c, &file)),
        Command::Risk {
            file,
            draws,
            seed,
            baseline,
            shape,
            correlation,
            vary,
            json,
        } => {
            let sampling = planner_core::engine::risk::sampling::Sampling {
                draws: draws as usize,
                seed,
                group_correlation: correlation,
                shape: shape.into(),
            };
            risk_cmd::risk(catalog, &file, &sampling, &vary, baseline.as_deref(), json)
        }
        Command::Workspace { command } => match command {
            WorkspaceCommand::New { out, title, from } => {
                workspace_cmd::new(catalog, &out, title.as_deref(), from.as_deref())
            }
            WorkspaceCommand::Show { file } => workspace_cmd::show(catalog, &file),
            WorkspaceCommand::Export { file, out } => workspace_cmd::export(catalog, &file, out.as_deref()),
            WorkspaceCommand::Check { file } => workspace_cmd::check(catalog, &file),
            WorkspaceCommand::Lock { file } => workspace_cmd::lock(catalog, &file),
            WorkspaceCommand::Unlock { file } => workspace_cmd::unlock(catalog, &file),
            WorkspaceCommand::Sample { recipe, out } => sample_cmd::sample(catalog, &recipe, &out),
            WorkspaceCommand::SaveAs { file, out } => workspace_cmd::save_as(catalog, &file, &out),
        },
        Command::Memo(m) => memo(catalog, m),
        Command::Sign {
            pdf,
            with,
            passphrase_env,
            reason,
            workspace,
        } => memo_cmd::sign(
            catalog,
            &pdf,
            &with,
            passphrase_env.as_deref(),
            &reason,
            workspace.as_deref(),
        ),
        Command::Verify { file, json } => return memo_cmd::verify(&file, json),
        Command::Exit(e) => exit(catalog, e),
        Command::Audit { command } => match command {
            AuditCommand::Verify { file, json } => return audit_cmd::verify(catalog, &file, json),
            AuditCommand::Log { file } => audit_cmd::log(catalog, &file),
        },
        Command::Scorecard { file, json } => scorecard_cmd::scorecard(catalog, &file, json),
        Command::Plan { file, scenario, json } => {
            planner_app::catalog::load(catalog).and_then(|c| operations_cmd::plan(&c, &file, scenario.as_deref(), json))
        }
        Command::Quotes { command } => match command {
            QuotesCommand::Check { file, workspace, json } => {
                quotes_cmd::check(catalog, &file, workspace.as_deref(), json)
            }
        },
        Command::Identity { command } => match command {
            IdentityCommand::New {
                name,
                org,
                email,
                out,
                passphrase_env,
            } => memo_cmd::identity_new(catalog, &name, &org, email.as_deref(), &out, passphrase_env.as_deref()),
        },
    }?;
    Ok((text, true))
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

/// The distribution families `planner risk --shape` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RiskShape {
    Triangular,
    Pert,
    Uniform,
}

impl From<RiskShape> for planner_core::engine::risk::sampling::Shape {
    fn from(s: RiskShape) -> Self {
        match s {
            RiskShape::Triangular => planner_core::engine::risk::sampling::Shape::Triangular,
            RiskShape::Pert => planner_core::engine::risk::sampling::Shape::Pert,
            RiskShape::Uniform => planner_core::engine::risk::sampling::Shape::Uniform,
        }
    }
}

/// A correlation from 0 to 1.
fn correlation(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "`{text}` is not a correlation: give a number from 0 to 1, e.g. 0.8"
        )),
    }
}

/// `PATH=LOW..HIGH`: a figure of the file to draw over its range.
fn uncertain(text: &str) -> Result<planner_core::engine::risk::drivers::Uncertain, String> {
    let refuse = || format!("`{text}` is not PATH=LOW..HIGH, e.g. workloads/training/mfu=0.3..0.5");
    let (path, range) = text.split_once('=').ok_or_else(refuse)?;
    let (low, high) = range.split_once("..").ok_or_else(refuse)?;
    let number = |t: &str| t.trim().parse::<rust_decimal::Decimal>().map_err(|_| refuse());
    Ok(planner_core::engine::risk::drivers::Uncertain {
        path: path.trim().to_owned(),
        low: number(low)?,
        high: number(high)?,
    })
}
