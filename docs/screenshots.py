"""Make the screenshots the docs show, in the system's headless Chromium through Playwright.

    python docs/screenshots.py            # writes docs/images/review-page.png

The review page is that of seat 1 of game 3 of the ordinary run with seed 7, learned
against expert, at the default budget, shown at its first decision that lost points.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "images"


def review_page_screenshot(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    from bezsim.review.game_review import review_record
    from bezsim.review.page import write_review_page
    from bezsim.review.record import record_of_run
    from bezsim.rules import Rules

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no Chromium: apt-get install chromium")
    record = record_of_run(Rules.make("ordinary"), ["learned", "expert"], 7, 3)
    review = review_record(record, seats=[1])
    with tempfile.TemporaryDirectory() as folder:
        page_file = write_review_page(review, Path(folder) / "review.html")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1000, "height": 1200})
            page.goto(page_file.as_uri())
            page.keyboard.press("m")
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    IMAGES.mkdir(exist_ok=True)
    review_page_screenshot(IMAGES / "review-page.png")
