//! The memo as a list of blocks (paragraphs, tables, charts, gaps) in the memo's styles: what
//! `content` builds, `scripts` checks and `layout` lays out on pages.

use printpdf::{Color, Rgb};

use crate::fonts::Face;

/// A colour of the memo's palette.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ink {
    Text,
    Muted,
    Accent,
    Warning,
    Rule,
    Shade,
}

impl Ink {
    fn rgb(self) -> (f32, f32, f32) {
        match self {
            Ink::Text => (0.12, 0.14, 0.16),
            Ink::Muted => (0.36, 0.39, 0.43),
            Ink::Accent => (0.0, 0.35, 0.62),
            Ink::Warning => (0.62, 0.25, 0.0),
            Ink::Rule => (0.75, 0.77, 0.80),
            Ink::Shade => (0.94, 0.95, 0.96),
        }
    }

    pub(crate) fn colour(self) -> Color {
        let (r, g, b) = self.rgb();
        Color::Rgb(Rgb {
            r,
            g,
            b,
            icc_profile: None,
        })
    }
}

/// How a run of text looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub size: f32,
    pub face: Face,
    pub ink: Ink,
}

impl Style {
    pub const BODY: Style = Style {
        size: 9.5,
        face: Face::Regular,
        ink: Ink::Text,
    };
    pub const STRONG: Style = Style {
        size: 9.5,
        face: Face::Bold,
        ink: Ink::Text,
    };
    pub const SMALL: Style = Style {
        size: 8.0,
        face: Face::Regular,
        ink: Ink::Muted,
    };
    pub const WARNING: Style = Style {
        size: 9.0,
        face: Face::Regular,
        ink: Ink::Warning,
    };

    pub(crate) fn leading(self) -> f32 {
        self.size * 1.32
    }
}

/// How a table column aligns its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table column: its header, its share of the width (any scale) and its alignment.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub title: String,
    pub weight: f32,
    pub align: Align,
}

impl Column {
    pub fn left(title: impl Into<String>, weight: f32) -> Column {
        Column {
            title: title.into(),
            weight,
            align: Align::Left,
        }
    }

    pub fn right(title: impl Into<String>, weight: f32) -> Column {
        Column {
            title: title.into(),
            weight,
            align: Align::Right,
        }
    }
}

/// A table row; `strong` rows (totals) are set in bold on a shaded band; the `marked` cell, if
/// any, is set in bold in the warning colour (a stale figure's date and age).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub cells: Vec<String>,
    pub strong: bool,
    pub marked: Option<usize>,
}

impl Row {
    pub fn new(cells: Vec<String>) -> Row {
        Row {
            cells,
            strong: false,
            marked: None,
        }
    }

    pub fn strong(cells: Vec<String>) -> Row {
        Row {
            cells,
            strong: true,
            marked: None,
        }
    }

    /// The row with its cell `index` marked.
    pub fn marked(self, index: usize) -> Row {
        Row {
            marked: Some(index),
            ..self
        }
    }
}

/// A table; its header row is repeated on every page it runs onto.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    pub size: f32,
}

/// One piece of the memo, in reading order.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// The memo's title and the line under it.
    Title {
        title: String,
        subtitle: String,
    },
    /// A numbered section heading; `new_page` starts it on a fresh page.
    Heading {
        text: String,
        new_page: bool,
    },
    /// A smaller heading inside a section.
    Subheading(String),
    Paragraph {
        text: String,
        style: Style,
    },
    /// Label–value pairs in two columns.
    Facts(Vec<(String, String)>),
    Table(Table),
    /// An SVG chart drawn at `width` × `height` points, with a caption under it.
    Chart {
        svg: String,
        width: f32,
        height: f32,
        caption: String,
    },
    Gap(f32),
}
