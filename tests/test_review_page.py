"""The review page (bezsim/review/page.py): one file that loads nothing, driven in a real
headless Chromium (the system's package, through Playwright): it opens, steps through the
decisions with the buttons and the arrow keys, shows each decision's table and options and
the seats' summary, and logs no console error."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from bezsim.review.game_review import review_record
from bezsim.review.page import review_page, write_review_page
from bezsim.review.record import record_of_run
from bezsim.rules import Rules

DEALS = 8     # a cheap budget: the page is under test, not the values


@pytest.fixture(scope="module")
def review():
    rules = Rules.make("ordinary", {"target": 300})
    record = record_of_run(rules, ["greedy", "random"], 5, 1)
    return review_record(record, seats=[0, 1], deals=DEALS, seed=3, luck_deals=DEALS)


def embedded(page_text: str) -> dict:
    found = re.search(r'<script type="application/json" id="review-data">(.*?)</script>',
                      page_text, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_page_holds_the_review_and_loads_nothing(review):
    text = review_page(review)
    assert embedded(text) == json.loads(json.dumps(review.as_json(), ensure_ascii=False))
    # nothing fetched: no linked file, no source, no url() in the styles, no request in code
    for pattern in (r"<link\b", r"\bsrc\s*=", r"url\(", r"@import", r"\bfetch\(",
                    r"XMLHttpRequest", r"https?://(?!www\.w3\.org/2000/svg)"):
        assert re.search(pattern, text) is None, pattern


def test_a_name_cannot_end_the_embedded_data_early(review):
    record = review.record
    tricky = type(review)(**{**review.__dict__,
                             "record": type(record)(**{**record.__dict__,
                                                       "players": ("</script><b>x", "y")})})
    data = embedded(review_page(tricky))
    assert data["players"][0] == "</script><b>x"


def _chromium() -> str:
    """The system's Chromium; under CI, once .ci/run's install of it (if any) has ended."""
    import time

    pid = os.environ.get("BEZSIM_CHROMIUM_INSTALL_PID")
    if pid:
        began = time.monotonic()
        while os.path.exists(f"/proc/{pid}") and time.monotonic() - began < 600:
            time.sleep(0.5)
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            log = os.environ.get("BEZSIM_CHROMIUM_INSTALL_LOG")
            said = open(log).read()[-500:] if log and os.path.exists(log) else ""
            pytest.fail(f"no Chromium: .ci/run installs the system's package as root {said}")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    return found


def test_the_page_in_a_browser_steps_through_every_decision(review, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright comes with the test extra")
    path = write_review_page(review, tmp_path / "review.html")
    data = review.as_json()
    decisions = data["decisions"]
    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), headless=True,
                                    args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())

        n = len(decisions)
        position = page.locator("#position")
        assert position.inner_text() == f"decision 1 of {n}"
        # the summary: one row per reviewed seat, its totals as the review has them
        rows = page.locator("#summary table:not(#luck) tr")
        assert rows.count() == 1 + len(data["summaries"])
        for k, s in enumerate(data["summaries"]):
            cells = rows.nth(k + 1).locator("td").all_inner_texts()
            assert cells[1:3] == [str(s["decisions"]), str(s["forced"])]
            assert float(cells[3]) == pytest.approx(s["total_loss"], abs=0.051)
        # each seat's result split: result, skill, luck, its three parts, residue
        rows = page.locator("#luck tr")
        assert rows.count() == 1 + len(data["luck"])
        for k, split in enumerate(data["luck"]):
            cells = rows.nth(k + 1).locator("td").all_inner_texts()
            names = ("result", "skill", "luck", "position", "deal", "draws", "residue")
            assert [float(c) for c in cells[1:]] == pytest.approx(
                [split[name] for name in names], abs=0.051)
        # every decision, stepped with the arrow key: the heading, the seat's hand, the options
        for i, d in enumerate(decisions):
            if i:
                page.keyboard.press("ArrowRight")
            assert position.inner_text() == f"decision {i + 1} of {n}"
            heading = page.locator("#heading").inner_text()
            assert f"Hand {d['hand']}, trick {d['trick']}" in heading
            assert d["played"] in heading
            hand_row = page.locator("#table .row").nth(1)
            assert hand_row.locator(".card").all_inner_texts() == d["view"]["hand"]
            shown = page.locator("#options g.option")
            if d["forced"]:
                assert shown.count() == 0
            else:
                assert [shown.nth(k).get_attribute("data-option")
                        for k in range(shown.count())] == [o["option"] for o in d["options"]]
            verdict = page.locator("#verdict").inner_text()
            assert ("expected loss" in verdict) == (d["loss"] > 0)
        page.keyboard.press("ArrowRight")            # past the end: stays on the last
        assert position.inner_text() == f"decision {n} of {n}"
        assert page.locator("#next").is_disabled()
        # back with the buttons and the keys
        page.keyboard.press("Home")
        assert position.inner_text() == f"decision 1 of {n}"
        assert page.locator("#prev").is_disabled()
        page.click("#next")
        page.click("#next")
        page.keyboard.press("ArrowLeft")
        assert position.inner_text() == f"decision 2 of {n}"
        page.keyboard.press("End")
        assert position.inner_text() == f"decision {n} of {n}"
        # the next decision that lost points, from the start
        page.click("#first")
        losing = [i for i, d in enumerate(decisions) if d["loss"] > 0 and i > 0]
        assert losing                      # greedy and random lose points somewhere
        page.click("#next-loss")
        expected = losing[0] + 1
        assert position.inner_text() == f"decision {expected} of {n}"
        # the loss chart: one line per reviewed seat
        assert page.locator("#chart polyline").count() == len(data["seats"])
        browser.close()
    assert errors == []
    assert requests == [path.as_uri()]
