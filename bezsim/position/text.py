"""An explanation as text for ``bezsim explain``."""

from __future__ import annotations

from typing import Any


def _format_outcomes(d: dict[str, Any]) -> list[str]:
    lines = ["won: " + " ".join(d["won_trick"])]
    for outcome in d["outcomes"]:
        how = "exchanging the seven" if outcome["exchange_seven"] else (
            "keeping the seven" if len(d["outcomes"]) > 1 else "scores")
        lines.append(f"{how}: {outcome['total']}")
        for e in outcome["events"]:
            suit = f" {e['suit']}" if e["suit"] else ""
            shown = f" ({' '.join(e['cards'])})" if e["cards"] else ""
            lines.append(f"  {e['kind']}{suit}: {e['points']}{shown}")
    return lines


def format_explanation(d: dict[str, Any]) -> str:
    lines = [f"{d['variant']} bézique, trumps {d['trumps']}, trick {d['trick']} "
             f"(stage {d['stage']}), seat {d['seat']} to {d['phase']}"]
    if "partner" in d:
        on_win = (", on partner's win" if d.get("trick_winner", d["seat"]) != d["seat"]
                  else "")
        lines[0] += f" (partner: seat {d['partner']}{on_win})"
    if "outcomes" in d:
        lines += _format_outcomes(d)
    elif d["phase"] == "play":
        if d["current_trick"]:
            lines.append("on the trick: " + " ".join(d["current_trick"]))
        lines.append("legal plays: " + (" ".join(d["legal_plays"]) or "none"))
    else:
        if not d["legal_declarations"]:
            lines.append("legal declarations: none")
        else:
            lines.append("legal declarations:")
            for decl in d["legal_declarations"]:
                suit = f" {decl['suit']}" if decl["suit"] else ""
                lines.append(f"  {decl['kind']}{suit}: {decl['points']} "
                             f"({' '.join(decl['cards'])})")
    if "evaluation" in d:
        lines += _format_evaluation(d["evaluation"])
    return "\n".join(lines)


def _format_evaluation(e: dict[str, Any]) -> list[str]:
    lines = [f"values ({e['value']}; {e['method']}):"]
    for row in sorted(e["values"], key=lambda r: -r["value"]):
        if row["low"] == row["high"]:
            lines.append(f"  {row['card']:>4} {row['value']:+8.1f}")
            continue
        lines.append(f"  {row['card']:>4} {row['value']:+8.1f} [{row['low']:+.1f}, "
                     f"{row['high']:+.1f}]  vs top {row['vs_top']:+.1f} "
                     f"[{row['vs_top_low']:+.1f}, {row['vs_top_high']:+.1f}]")
    lines.append(f"best: {e['best']}")
    lines.append("policies play: " + ", ".join(f"{name} {card}"
                                               for name, card in e["choices"].items()))
    return lines
