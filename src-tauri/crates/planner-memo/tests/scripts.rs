//! Text outside Latin script in the memo (issue #14): CJK text is set in WenQuanYi Micro Hei,
//! embedded as a subset only when the memo needs it, and comes back whole from pdftotext; scripts
//! the memo would garble (right to left, or needing shaping) and characters no embedded font has
//! are refused by name, never dropped. Read back with poppler's pdftotext, pdffonts and pdftoppm.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Case, case, draft, memo, pdftotext, render_page, report, root, tool};
use planner_core::memo::{MemoDraft, Paper};
use planner_memo::fonts::{Face, Fonts};
use planner_memo::layout::MARGIN_X;
use planner_memo::{MemoError, memo_pdf};

const DECISION: &str = "采购决定：租用云端GPU，三十六个月";
const RATIONALE: &str = "自有机房的电力不足以支撑新的集群，因此先租用云端算力三十六个月，期间评估自建机房的成本与风险。\
                         租用的价格按三年预留计算，并保留按需扩容的余地。";

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn enterprise() -> Case {
    case(&report::sample_text("enterprise-hybrid"), None)
}

/// The enterprise sample with its first scenario renamed.
fn enterprise_named(name: &str) -> Case {
    let text = report::sample_text("enterprise-hybrid").replace(
        "\"Two DGX H100 for the base, AWS spot and on-demand for bursts\"",
        &format!("\"{name}\""),
    );
    assert!(text.contains(name));
    case(&text, None)
}

fn cjk_draft(c: &Case) -> MemoDraft {
    MemoDraft {
        decision: DECISION.to_owned(),
        rationale: RATIONALE.repeat(4),
        ..draft(c, Paper::A4)
    }
}

fn try_memo(c: &Case, d: &MemoDraft) -> Result<planner_memo::Memo, MemoError> {
    memo_pdf(&common::input(c, d))
}

/// pdffonts' rows: (name, embedded, subset, has ToUnicode).
fn fonts_of(path: &std::path::Path) -> Vec<(String, bool, bool, bool)> {
    let out = tool("pdffonts", &[&path.to_string_lossy()]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(2)
        .map(|row| {
            let cols: Vec<&str> = row.split_whitespace().collect();
            let n = cols.len();
            (
                cols[0].to_owned(),
                cols[n - 5] == "yes",
                cols[n - 4] == "yes",
                cols[n - 3] == "yes",
            )
        })
        .collect()
}

#[test]
fn a_chinese_decision_comes_back_whole_from_pdftotext_set_in_an_embedded_cjk_subset() {
    let c = enterprise();
    let m = memo(&c, &cjk_draft(&c));
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "memo.pdf", &m.bytes);
    let text = pdftotext(&path);
    assert!(text.contains(DECISION), "the decision is not in the text:\n{text}");
    // The rationale wraps: its characters come back in order, line breaks aside.
    let flat: String = text.split_whitespace().collect();
    assert!(
        flat.contains(&RATIONALE.repeat(4)),
        "the rationale is not in the text:\n{text}"
    );

    let fonts = fonts_of(&path);
    let cjk = fonts
        .iter()
        .find(|f| f.0.ends_with("+WenQuanYiMicroHei"))
        .unwrap_or_else(|| panic!("no WenQuanYi Micro Hei subset among {fonts:?}"));
    assert!(
        cjk.1 && cjk.2 && cjk.3,
        "embedded, subset, with a ToUnicode map: {cjk:?}"
    );
    assert!(fonts.iter().all(|f| f.1 && f.3), "{fonts:?}");
    // A subset of the ~50 characters used, not the 5 MB font.
    let latin = memo(&c, &draft(&c, Paper::A4));
    let grown = m.bytes.len() - latin.bytes.len();
    assert!(
        grown < 40_000,
        "the CJK memo is {grown} bytes larger than the Latin one"
    );
}

#[test]
fn a_latin_memo_embeds_no_cjk_font() {
    let c = enterprise();
    let m = memo(&c, &draft(&c, Paper::A4));
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "memo.pdf", &m.bytes);
    let names: Vec<String> = fonts_of(&path).into_iter().map(|f| f.0).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.contains("+DejaVuSans")), "{names:?}");
    assert!(!m.bytes.windows(9).any(|w| w == b"WenQuanYi"));
}

#[test]
fn cjk_scenario_names_are_drawn_in_the_text_and_the_charts() {
    let name = "自建两台DGX，云端突发";
    let c = enterprise_named(name);
    let m = memo(&c, &cjk_draft(&c));
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    let path = write(&artifacts, "memo-cjk-a4.pdf", &m.bytes);
    let text = pdftotext(&path);
    assert!(text.contains(&format!("Scenario: {name} (recommended)")), "{text}");
    // The comparison chart's legend is outlines, not text: it is checked by rendering the page.
    let p = path.to_string_lossy();
    for page in ["1", "3"] {
        let prefix = artifacts.join(format!("memo-cjk-page-{page}"));
        render_page(&path, page, &prefix);
    }
    let qpdf = tool("qpdf", &["--check", &p]);
    assert!(
        qpdf.status.success(),
        "qpdf --check: {}",
        String::from_utf8_lossy(&qpdf.stdout)
    );
}

#[test]
fn a_long_cjk_paragraph_wraps_within_the_margins() {
    let fonts = Fonts::load().unwrap();
    let (w, _) = Paper::A4.size_pt();
    let width = w - 2.0 * MARGIN_X;
    let para = RATIONALE.repeat(6);
    let lines = fonts.wrap(&para, Face::Regular, 9.5, width);
    assert!(lines.len() >= 8, "{lines:?}");
    assert_eq!(lines.concat(), para);
    for l in &lines {
        let lw = fonts.width(l, Face::Regular, 9.5);
        assert!(lw <= width, "{lw} > {width}: {l}");
    }
    // Full lines, not one sentence a line: all but the last come within two ideographs of the
    // width.
    for l in &lines[..lines.len() - 1] {
        assert!(fonts.width(l, Face::Regular, 9.5) > width - 2.0 * 9.5 - 0.01, "{l}");
    }

    // And in the PDF: every line of the rationale is drawn inside the margins.
    let c = enterprise();
    let d = MemoDraft {
        rationale: para.clone(),
        ..draft(&c, Paper::A4)
    };
    let m = memo(&c, &d);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "memo.pdf", &m.bytes);
    let out = tool(
        "pdftotext",
        &["-bbox", "-f", "1", "-l", "1", &path.to_string_lossy(), "-"],
    );
    let html = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut cjk_words = 0;
    for line in html.lines().filter(|l| l.contains("<word ")) {
        let attr = |key: &str| -> f32 {
            let start = line.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
            let end = start + line[start..].find('"').unwrap();
            line[start..end].parse().unwrap()
        };
        if line.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c)) {
            cjk_words += 1;
            assert!(attr("xMin") >= MARGIN_X - 0.5, "{line}");
            assert!(attr("xMax") <= w - MARGIN_X + 0.5, "{line}");
        }
    }
    assert!(cjk_words >= 8, "{cjk_words} rationale lines found:\n{html}");
}

fn refusal(c: &Case, d: &MemoDraft) -> String {
    match try_memo(c, d) {
        Err(e @ MemoError::Unset(_)) => e.to_string(),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a memo was made"),
    }
}

const ADVICE: &str = "Write it in Latin, Greek, Cyrillic or CJK script, or attach it as a separate document";

#[test]
fn arabic_or_hindi_text_is_refused_naming_the_field_the_characters_and_what_to_do() {
    let c = enterprise();
    let arabic = MemoDraft {
        decision: "قرار: استئجار وحدات معالجة الرسومات".to_owned(),
        ..draft(&c, Paper::A4)
    };
    let e = refusal(&c, &arabic);
    assert!(e.contains("the decision text has “ق ر ا س ت ئ ج"), "{e}");
    assert!(e.contains("(Arabic)"), "{e}");
    assert!(e.ends_with(ADVICE), "{e}");

    let hindi = MemoDraft {
        rationale: "Cheaper overall. निर्णय: क्लाउड किराए पर लें".to_owned(),
        ..draft(&c, Paper::A4)
    };
    let e = refusal(&c, &hindi);
    assert!(e.contains("the rationale has “न ि र ्"), "{e}");
    assert!(e.contains("(Devanagari)"), "{e}");
    assert!(e.ends_with(ADVICE), "{e}");

    // Hebrew in a scenario name (the draft's decision names the scenario too).
    let c = enterprise_named("שכירת ענן");
    let plain = MemoDraft {
        decision: "Rent.".to_owned(),
        ..draft(&c, Paper::A4)
    };
    let err = try_memo(&c, &plain).unwrap_err();
    let MemoError::Unset(texts) = &err else {
        panic!("{err}");
    };
    assert_eq!(texts[0].label, "the name of scenario `hybrid`");
    assert_eq!(texts[0].field, None);
    assert!(err.to_string().contains("(Hebrew)"), "{err}");
    let MemoError::Unset(texts) = try_memo(&c, &draft(&c, Paper::A4)).unwrap_err() else {
        panic!()
    };
    assert_eq!(texts[0].label, "the decision text");
    assert_eq!(texts[0].field.as_deref(), Some("decision"));
    assert_eq!(texts[1].label, "the name of scenario `hybrid`");

    // Fields the form shows the problem under; an invisible character is quoted by code point.
    let c = enterprise();
    let both = MemoDraft {
        client: "Acme\u{200F}".to_owned(),
        author: "Ада 🙂".to_owned(),
        ..draft(&c, Paper::A4)
    };
    let MemoError::Unset(texts) = try_memo(&c, &both).unwrap_err() else {
        panic!()
    };
    let fields: Vec<Option<&str>> = texts.iter().map(|t| t.field.as_deref()).collect();
    assert_eq!(fields, [Some("author"), Some("client")]);
    assert_eq!(texts[1].chars, "U+200F");
    assert!(
        texts[0].message().contains("no glyph in the memo fonts"),
        "{}",
        texts[0].message()
    );
}

#[test]
fn greek_cyrillic_and_accented_latin_need_no_cjk_font() {
    let c = enterprise();
    let d = MemoDraft {
        decision: "Décision: λόγος, решение, Entscheidung — übernehmen.".to_owned(),
        ..draft(&c, Paper::A4)
    };
    let m = memo(&c, &d);
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "memo.pdf", &m.bytes);
    assert!(pdftotext(&path).contains("Décision: λόγος, решение, Entscheidung — übernehmen."));
    assert!(fonts_of(&path).iter().all(|f| f.0.contains("+DejaVuSans")));
}
