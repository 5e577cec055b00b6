"""Makes the UI's font files: DejaVu Sans (regular and bold, from assets/fonts, the memo's font)
cut down to the scripts and symbols the app writes, so WebKit loads ~0.3 MB instead of 1.5 MB.

Run from the repository root after changing the ranges or the source fonts, and commit the
output (ui/src/fonts/): `pip install fonttools && python3 ui/fonts/subset.py`. The same ranges
are the `unicode-range` of the @font-face rules in ui/src/app.css: any other character is drawn
with the system's sans-serif font.
"""

from pathlib import Path

from fontTools import subset

# Latin (with Latin-1 and Extended-A/B), combining marks, Greek, Cyrillic, punctuation,
# super- and subscripts, currency, letterlike, number forms, arrows, mathematical operators,
# technical, enclosed alphanumerics, box drawing, blocks, geometric shapes, symbols, dingbats.
RANGES = "U+0000-036F,U+0370-03FF,U+0400-04FF,U+2000-23FF,U+2460-27BF"

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ui" / "src" / "fonts"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in ("DejaVuSans", "DejaVuSans-Bold"):
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.hinting = True
        font = subset.load_font(str(ROOT / "assets" / "fonts" / f"{name}.ttf"), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=subset.parse_unicodes(RANGES))
        subsetter.subset(font)
        target = OUT / f"{name}-ui.ttf"
        subset.save_font(font, str(target), options)
        print(f"{target.relative_to(ROOT)}: {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
