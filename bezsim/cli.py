"""The ``bezsim`` command.

Every user error (bad flag or value, BezsimError, OSError) is ONE line on stderr,
``bezsim: error: <message>``, with a non-zero exit code; never a traceback or a usage dump.
Heavy modules (numba engine, pyarrow) are imported inside commands so ``--help`` is instant.
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import sys
from typing import Any

import click

from bezsim import __version__
from bezsim.errors import BezsimError, OutputError
from bezsim.rules import VARIANTS, option_names

VARIANT_HELP = f"Bézique variant: {', '.join(VARIANTS)}."

MAX_SEED = 2**63 - 1
EXIT_USAGE = 2
EXIT_OS = 1
EXIT_INTERRUPTED = 130


class Interrupted(Exception):
    """Ctrl-C during a command, carrying the line that tells the user what was kept."""


def _one_line(text: Any) -> str:
    return " ".join(line.strip() for line in str(text).splitlines() if line.strip())


def _os_message(exc: OSError) -> str:
    if exc.filename is not None and exc.strerror:
        return f"{exc.strerror}: {exc.filename}"
    return str(exc)


def _usage_message(exc: click.ClickException) -> str:
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


class BezsimGroup(click.Group):
    """A click group whose errors are single lines (click's standalone mode prints usage)."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        code = 0
        try:
            rv = super().main(args=args, prog_name=prog_name or "bezsim",
                              complete_var=complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except Interrupted as exc:
            click.echo(str(exc), err=True)
            code = EXIT_INTERRUPTED
        except click.Abort:  # click's form of KeyboardInterrupt
            click.echo("interrupted", err=True)
            code = EXIT_INTERRUPTED
        except click.ClickException as exc:
            code = _error(_usage_message(exc), EXIT_USAGE)
        except BezsimError as exc:
            code = _error(str(exc), exc.exit_code)
        except OSError as exc:
            code = _error(_os_message(exc), EXIT_OS)
        if standalone_mode:
            sys.exit(code)
        return code


def _error(message: str, code: int) -> int:
    click.echo(f"bezsim: error: {_one_line(message)}", err=True)
    return code


def _not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An empty path would silently mean the default or the current directory."""
    if value is not None and not value.strip():
        raise click.BadParameter("must not be empty", ctx=ctx, param=param)
    return value


def _make_rules(variant: str, options: tuple[str, ...], players: int | None = None):
    from bezsim.rules import Rules

    return Rules.from_strings(variant, list(options), players=players)


def _parse_policies(text: str, players: int, overrides: tuple[str, ...] = ()) -> list[str]:
    from bezsim.policy_specs.registry import parse_policies

    return parse_policies(text, players, overrides)


def draw_seed() -> int:
    """A seed for a run given none: six digits, so the default folder
    (data/runs/ordinary-482913) and the command that repeats the run stay readable. Any seed
    up to 2**63 - 1 may be given; a drawn one only has to differ between runs."""
    return 100_000 + secrets.randbelow(900_000)


def _complete_variant(ctx, param, incomplete: str) -> list[str]:
    """Shell completion of --variant (docs: Getting started)."""
    return [v for v in VARIANTS if v.startswith(incomplete)]


def _complete_policies(ctx, param, incomplete: str) -> list[str]:
    """Shell completion of the last name of a --policies comma list."""
    from bezsim.policy_specs.registry import POLICY_NAMES

    done, _, last = incomplete.rpartition(",")
    head = f"{done}," if done else ""
    return [head + name for name in POLICY_NAMES if name.startswith(last)]


class PoliciesOption(click.Option):
    """An option whose help names the built-in policies (``{policies}``) from the registry,
    so a new one is never left out; read only when the help is shown, as the registry loads
    numba."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from bezsim.policy_specs.registry import POLICY_NAMES

        template = self.help or ""
        self.help = template.replace("{policies}", ", ".join(POLICY_NAMES))
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = template


def _complete_option(ctx, param, incomplete: str) -> list[str]:
    """Shell completion of --option NAME=VALUE: the names, then the values of one."""
    from bezsim.rules import option_choices

    name, eq, value = incomplete.partition("=")
    names = sorted({n for v in VARIANTS for n in option_names(v)})
    if not eq:
        return [f"{n}=" for n in names if n.startswith(name)]
    choices = option_choices(name) if name in names else ()
    return [] if isinstance(choices, str) else [f"{name}={c}" for c in choices
                                                 if c.startswith(value)]


def _long_run_options(seed_help: str, out_help: str):
    """--seed, --threads, --out and --no-progress of a long resumable command."""
    def apply(func):
        func = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(func)
        func = click.option("--out", type=click.Path(file_okay=False), default=None,
                            callback=_not_empty, help=out_help)(func)
        func = click.option("--threads", type=click.IntRange(min=1), default=None,
                            help="Engine threads (default: all cores).")(func)
        return click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
                            help=seed_help)(func)
    return apply


def _rules_options(func):
    """--variant, --option and --policies: shared by the commands that play games."""
    func = click.option("--policy-param", "policy_params", multiple=True,
                        metavar="POLICY.PARAM=VALUE",
                        help="A policy parameter (repeatable); 'bezsim policies' lists "
                             "them.")(func)
    func = click.option("--policies", "--policy", "policies",
                        shell_complete=_complete_policies, default="random",
                        show_default=True, cls=PoliciesOption,
                        help="Policy for every seat ({policies}, your own "
                             "package.module:function, or "
                             "@FILE.json from bezsim tune or learn), or a comma list, one per "
                             "seat; a policy may carry parameters: "
                             "greedy(stage2_win_margin=8).")(func)
    func = click.option("--option", "options", multiple=True,
                        shell_complete=_complete_option, metavar="NAME=VALUE",
                        help="Rule option (repeatable); 'bezsim options' lists them.")(func)
    func = click.option("--players", type=int, default=None,
                        help="Number of players; must be the variant's (checked).")(func)
    func = click.option("--variant", default="ordinary", show_default=True,
                        shell_complete=_complete_variant,
                        help=VARIANT_HELP)(func)
    return func


@click.group(cls=BezsimGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bezsim")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Monte Carlo simulation of the card game Bézique."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@cli.command()
@_rules_options
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Number of games to play.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Root seed; without it a random seed is drawn and printed.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Engine threads (default: all cores).")
@click.option("--shard-size", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Games per Parquet shard.")
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=_not_empty,
              help="Output directory [default: data/runs/<variant>-<seed>].")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", callback=_not_empty,
              help="Finish the run in DIR (its manifest gives rules, policies, seed and "
                   "games): only missing or damaged shards are played.")
@click.option("--dask", "dask", default=None, metavar="local|tcp://HOST:PORT",
              help="Run the shards as tasks on a local Dask cluster or an existing one (needs "
                   "pip install 'bezsim[dask]'; --out must be reachable by every worker).")
@click.option("--records", is_flag=True,
              help="Also write every game's record (JSON: bezsim review --record) to "
                   "OUT/records/, one file a game; with --resume, those missing.")
@click.pass_context
def simulate(ctx: click.Context, variant: str, players: int | None, options: tuple[str, ...],
             policies: str, policy_params: tuple[str, ...], games: int, seed: int | None,
             threads: int | None, shard_size: int, out: str | None, no_progress: bool,
             resume_dir: str | None, dask: str | None, records: bool) -> None:
    """Play seeded games and store them as Parquet tables (rerun, or --resume DIR, to
    finish an interrupted run)."""
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.running.simulation import check_run, run_simulation

    drawn = False
    if resume_dir is not None:
        rules, policy_list, seed, games, shard_size = _resumed_run(ctx, resume_dir)
        out = resume_dir
    else:
        rules = _make_rules(variant, options, players)
        policy_list = _parse_policies(policies, rules.players, policy_params)
        drawn = seed is None
        if drawn:
            seed = draw_seed()
        out = out or os.path.join("data", "runs", f"{rules.variant}-{seed}")
    if records and "://" in out:
        raise BezsimError(f"--records writes to a folder on this machine; {out} is a URL")
    # one line when the first kernel compiles, whether in the checks (plug-ins, search) or
    # in the run
    with compiles_said([("run", policy_list)], say=not no_progress, rules=rules):
        if resume_dir is None:
            # a refused run says one line: the drawn seed is printed only for a run that
            # starts
            check_run(rules, policy_list, seed, games, out, threads=threads,
                      shard_size=shard_size, dask=dask)
            if drawn:
                click.echo(f"seed: {seed}", err=True)
        try:
            summary = run_simulation(rules, policy_list, seed, games, out, threads=threads,
                                     shard_size=shard_size, progress=not no_progress,
                                     dask=dask)
        except KeyboardInterrupt:
            raise Interrupted(f"interrupted; finished shards are kept in {out} — resume "
                              f"with: {_resume_command(out, dask)}") from None
        except OutputError as exc:
            raise OutputError(f"{exc}; {_what_is_kept(out, dask)}") from None
    _print_summary(summary)
    if records:
        with compiles_said(_step_needs(policy_list), say=not no_progress):
            folder = _write_records(rules, policy_list, seed, games,
                                    os.path.join(out, "records"), not no_progress)
        click.echo(f"records: {folder}")


def _write_records(rules, policies: list[str], seed: int, games: int, folder: str,
                   progress: bool) -> str:
    """Each game's record as ``game-N.json`` in ``folder``; a record already there (an
    earlier, interrupted call) is kept, so a resumed run writes only those missing."""
    from bezsim.review.record import record_of_run

    os.makedirs(folder, exist_ok=True)
    missing = [g for g in range(games)
               if not os.path.exists(os.path.join(folder, f"game-{g}.json"))]
    bar = None
    if progress and missing:
        from tqdm import tqdm

        bar = tqdm(total=len(missing), unit="record", file=sys.stderr, leave=False)
    try:
        for g in missing:
            record_of_run(rules, policies, seed, g).write(os.path.join(folder, f"game-{g}.json"))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return folder


def _what_is_kept(out: str, dask: str | None) -> str:
    """After a failed write: the resume command only where a run's manifest was written
    (without it --resume cannot work)."""
    from bezsim.io.manifest import read_manifest

    try:
        resumable = read_manifest(out) is not None
    except (OSError, BezsimError):
        resumable = False
    if not resumable:
        return f"no run was written to {out}"
    return f"finished shards are kept — resume with: {_resume_command(out, dask)}"


def _resume_command(out: str, dask: str | None) -> str:
    again = f" --dask {shlex.quote(dask)}" if dask else ""
    return f"bezsim simulate --resume {shlex.quote(str(out))}{again}"


_RUN_DEFINING = ("variant", "players", "options", "policies", "policy_params", "games",
                 "seed", "shard_size", "out")


def _resumed_run(ctx: click.Context, directory: str):
    """(rules, policies, seed, games, shard size) of the run a directory's manifest records."""
    from click.core import ParameterSource

    from bezsim.io.manifest import MANIFEST_NAME, read_manifest
    from bezsim.rules import Rules

    given = [name for name in _RUN_DEFINING
             if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)]
    if given:
        flag = {"options": "--option", "policy_params": "--policy-param"}.get(
            given[0], "--" + given[0].replace("_", "-"))
        raise click.UsageError(f"{flag} cannot be combined with --resume: the run in "
                               f"{directory} fixes it")
    if not os.path.isdir(directory):
        raise BezsimError(f"cannot resume {directory}: no such directory")
    manifest = read_manifest(directory)
    if manifest is None:
        raise BezsimError(f"cannot resume {directory}: it holds no bezsim run (no "
                          f"{MANIFEST_NAME})")
    try:
        recorded = manifest["rules"]
        rules = Rules.make(recorded["variant"], recorded["options"])
        return (rules, list(manifest["policies"]), int(manifest["seed"]),
                int(manifest["games"]), int(manifest["shard_size"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BezsimError(f"cannot resume {directory}: its {MANIFEST_NAME} is incomplete "
                          f"({type(exc).__name__}: {exc})") from None


def _print_summary(summary) -> None:
    for note in summary.damaged:
        click.echo(f"played again, found damaged: {note}", err=True)
    for name in summary.ignored:
        click.echo(f"ignored: {name} in {summary.out_dir} (not a file bezsim wrote: bezsim's "
                   "readers skip it, pandas.read_parquet on the folder does not; move it out)",
                   err=True)
    if summary.games_run == 0:
        click.echo(f"games:  all {summary.games:,} already in {summary.out_dir}; nothing to do")
    else:
        resumed = f" ({summary.games_skipped:,} already done)" if summary.games_skipped else ""
        click.echo(f"games:  {summary.games_run:,}{resumed}")
        click.echo(f"hands:  {summary.hands:,} in {summary.elapsed - summary.compile_seconds:.1f}"
                   f" s ({summary.hands_per_second:,.0f} hands/s)")
        if summary.compile_seconds:
            click.echo(f"engine: compiled for this machine in {summary.compile_seconds:.1f} s "
                       "(once: later runs load it from the cache)")
    hands_dir = os.path.join(summary.out_dir, "hands")
    click.echo(f"tables: {os.path.join(summary.out_dir, '{hands,games,declarations}')}")
    click.echo(f'read:   pandas.read_parquet("{hands_dir}")')


def _one_game_options(saved_help: str):
    """--seed, --game (a game of a run, with the run's flags) and --saved: the commands that
    take one game (replay, review)."""
    def decorate(func):
        func = click.option("--saved", type=click.Path(exists=True, dir_okay=False),
                            default=None, help=saved_help)(func)
        func = click.option("--game", type=click.IntRange(0, MAX_SEED), default=0,
                            show_default=True, help="Game index within the run.")(func)
        return click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
                            help="Root seed of the run the game belongs to.")(func)
    return decorate


@cli.command()
@_rules_options
@_one_game_options("A game saved by 'bezsim play': its transcript, every card shown (a game "
                   "left or resigned: as far as it went).")
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the game's record (JSON, docs/review.md) to FILE.")
def replay(variant: str, players: int | None, options: tuple[str, ...], policies: str,
           policy_params: tuple[str, ...], seed: int | None, game: int,
           saved: str | None, record_file: str | None) -> None:
    """Print a readable transcript of one seeded game, or of a game played with
    'bezsim play'. Hands and tricks are numbered from 1, as 'bezsim play' shows them (the
    tables' hand ids count from 0)."""
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.review import record as rec

    _check_folder("--record", record_file)
    if saved is not None:
        from bezsim.step.step_game import StepGame, read_saved

        bots = [p for p in read_saved(saved).policies if p is not None]
        with compiles_said(_step_needs(bots)):
            text = StepGame.load(saved).transcript()
            record = rec.record_of_saved(saved) if record_file else None
    else:
        if seed is None:
            raise BezsimError("replay needs --seed (the run's root seed), or --saved FILE")
        rules = _make_rules(variant, options, players)
        policy_list = _parse_policies(policies, rules.players, policy_params)
        from bezsim.replay import transcript

        with compiles_said([("run", policy_list)], rules=rules):
            text = transcript(rules, policy_list, seed, game)
        if record_file:
            with compiles_said(_step_needs(policy_list)):
                record = rec.record_of_run(rules, policy_list, seed, game)
    click.echo(text.rstrip("\n"))
    if record_file:
        record.write(record_file)
        click.echo(f"record: {record_file}")


@cli.command()
@_rules_options
@_one_game_options("A game saved by 'bezsim play' (finished, resigned or left).")
@click.option("--record", "record_file", type=click.Path(exists=True, dir_okay=False),
              default=None, help="A game record (JSON; 'bezsim review --write-record').")
@click.option("--seat", "seat_text", default="0", show_default=True,
              help="The seat to review, or 'all'.")
@click.option("--deals", "--budget", "deals", type=click.IntRange(2, 100_000), default=96,
              show_default=True,
              help="The budget: sampled deals per decision; more narrows the intervals and "
                   "costs time.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, allow_dash=True),
              default=None, help="Write every figure as JSON to FILE ('-': standard output).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None,
              help="Write the review as a page to FILE: one HTML file that works offline.")
@click.option("--write-record", type=click.Path(dir_okay=False), default=None,
              help="Also write the game's record to FILE.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def review(variant: str, players: int | None, options: tuple[str, ...], policies: str,
           policy_params: tuple[str, ...], seed: int | None, game: int, saved: str | None,
           record_file: str | None, seat_text: str, deals: int, json_file: str | None,
           html_file: str | None, write_record: str | None, progress: bool) -> None:
    """Review one game: what each decision of a seat was worth, judged from what that seat
    could see, its loss against search's choice, and the seat's totals."""
    from bezsim.review import record as rec

    sources = [x for x in (seed, saved, record_file) if x is not None]
    if len(sources) != 1:
        raise BezsimError("review needs one game: --seed (with --game and the run's flags), "
                          "--saved FILE or --record FILE")
    for flag, path in (("--json", json_file), ("--html", html_file),
                       ("--write-record", write_record)):
        _check_folder(flag, path)
    # everything checked before any game is played: the seat, then the record's legality
    if record_file is not None:
        record = rec.read_record(record_file)
        seats = _review_seats(seat_text, record.rules)
        rec.replay(record)
    elif saved is not None:
        from bezsim.step.step_game import read_saved

        seats = _review_seats(seat_text, read_saved(saved).rules)
        record = rec.record_of_saved(saved)
    else:
        rules = _make_rules(variant, options, players)
        seat_list = _parse_policies(policies, rules.players, policy_params)
        seats = _review_seats(seat_text, rules)
        record = rec.record_of_run(rules, seat_list, seed, game)
    if write_record is not None:
        record.write(write_record)
    _review_and_write(record, seats, deals, progress, html_file, json_file)


def _review_and_write(record, seats: list[int], deals: int, progress: bool,
                      html_file: str | None = None, json_file: str | None = None) -> None:
    """Review ``seats`` of the game in ``record`` with a progress bar, write the page and
    the JSON where asked, and print the review (bezsim review, bezsim play --review)."""
    from bezsim.review.game_review import review_record, review_text

    total = sum(a.seat in seats for a in record.actions)
    bar = None
    if progress and total:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="decision", file=sys.stderr, leave=False)
    try:
        result = review_record(record, seats, deals,
                               on_decision=None if bar is None else lambda: bar.update(1))
    finally:
        if bar is not None:
            bar.close()
    if html_file is not None:
        from bezsim.review.page import write_review_page

        write_review_page(result, html_file)
    if json_file is not None:
        text = json.dumps(result.as_json(), ensure_ascii=False, indent=1)
        if json_file == "-":
            click.echo(text)
            return
        with open(json_file, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    click.echo(review_text(result))
    if html_file is not None:
        click.echo(f"page: {html_file} (open it in a browser; it works offline)")


def _review_seats(text: str, rules) -> list[int]:
    """--seat of bezsim review: one seat of the game, or all."""
    if text == "all":
        return list(range(rules.players))
    if text.isdigit() and int(text) < rules.players:
        return [int(text)]
    raise BezsimError(f"--seat {text}: {rules.variant} has seats 0 to {rules.players - 1} "
                      "(or 'all')")


_GAME_DEFINING = ("variant", "options", "against", "seed", "seat")


@cli.command()
@click.option("--variant", default="ordinary", show_default=True,
              shell_complete=_complete_variant,
              help=VARIANT_HELP)
@click.option("--option", "options", multiple=True, shell_complete=_complete_option,
              metavar="NAME=VALUE", help="Rule option (repeatable).")
@click.option("--against", default="expert", show_default=True, cls=PoliciesOption,
              shell_complete=_complete_policies,
              help="The policy every other seat plays: a built-in policy ({policies}), "
                   "which may carry parameters: greedy(stage2_win_margin=8).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Seed of the deal (drawn at random without it).")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Your seat (0 leads the first trick unless you deal).")
@click.option("--hint", "hint", default="expert", show_default=True, cls=PoliciesOption,
              shell_complete=_complete_policies,
              help="The policy that answers 'h': a built-in policy ({policies}).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Where to save the game [default: data/games/VARIANT-seedS-TIME.json; "
                   "with --load, the file loaded].")
@click.option("--load", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue a game you left (quit) from where it stopped; its variant, "
                   "options, seed, seat and opponents come from the file.")
@click.option("--review", "review_file", type=click.Path(dir_okay=False), default=None,
              help="When the game ends, review your decisions (as bezsim review) and write "
                   "the page to FILE (HTML). Without it you are asked at the end.")
@click.pass_context
def play(ctx: click.Context, variant: str, options: tuple[str, ...], against: str,
         seed: int | None, seat: int, hint: str, save: str | None, load: str | None,
         review_file: str | None) -> None:
    """Play a game against the bots at the terminal, or continue one (--load FILE)."""
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.policy_specs.registry import parse_spec
    from bezsim.step.play import continue_terminal, play_terminal

    if load is not None:
        from click.core import ParameterSource

        given = [name for name in _GAME_DEFINING
                 if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)]
        if given:
            flag = "--option" if given[0] == "options" else "--" + given[0]
            raise click.UsageError(f"{flag} cannot be combined with --load: the saved game "
                                   "fixes it")
        parse_spec(hint)
        from bezsim.step.step_game import read_saved

        bots = [p for p in read_saved(load).policies if p is not None]
        _check_folder("--review", review_file)
        with compiles_said(_step_needs([*bots, hint])):
            path = continue_terminal(load, hint, save, write=click.echo)  # refuses a file
        _offer_review(path, review_file)                                # it cannot take up
        return
    rules = _make_rules(variant, options, None)
    if seat >= rules.players:
        raise BezsimError(f"--seat {seat}: {variant} has seats 0 to {rules.players - 1}")
    for spec in (against, hint):
        parse_spec(spec)
    if seed is None:
        seed = draw_seed()
    _check_folder("--review", review_file)
    with compiles_said(_step_needs([against, hint])):
        path = play_terminal(rules, against, seed, seat, hint, save, write=click.echo)
    _offer_review(path, review_file)


def _check_folder(flag: str, path: str | None) -> None:
    """A file to be written later must have a folder to go in: said before any work."""
    if path not in (None, "-") and not os.path.isdir(os.path.dirname(path) or "."):
        raise BezsimError(f"{flag} {path}: no folder {os.path.dirname(path)} to write in")


def _offer_review(saved_path, page: str | None) -> None:
    """When a game of bezsim play stops, its file becomes a game record too; at its end
    (over or resigned, not left), review the person's decisions into ``page``, or ask
    whether to (at a terminal only)."""
    from bezsim.review.record import save_as_record
    from bezsim.step.step_game import read_saved

    record = save_as_record(saved_path)
    saved = read_saved(saved_path)
    if not (saved.over or saved.resigned):
        return
    if page is None:
        if not sys.stdin.isatty():
            return
        page = os.path.splitext(str(saved_path))[0] + ".review.html"
        answer = click.prompt(f"review your decisions now (each valued by search, about a "
                              f"minute; the page goes to {page})? [y/N]", default="",
                              show_default=False)
        if answer.strip().lower() not in ("y", "yes"):
            return
    from bezsim.review.values import DEFAULT_DEALS

    _review_and_write(record, list(saved.open_seats), DEFAULT_DEALS, True, page)


def _step_needs(specs: list[str]) -> list[tuple[str, list[str]]]:
    """What a game driven step by step compiles: the replay with every built-in, and the
    search (or a plug-in) where a seat or the hint plays one."""
    from bezsim.policy_specs.registry import spec_of

    return [("step", [])] + [("run", [spec]) for spec in specs
                             if spec_of(spec).info.function is not None]


def _json_default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@click.option("--evaluate", is_flag=True,
              help="Value every legal card (expected margin, or the settlement in Rubicon, "
                   "with a 95% interval) and show what each built-in policy would play.")
@click.option("--deals", type=click.IntRange(1, 100_000), default=400, show_default=True,
              help="With --evaluate: sampled deals of the unseen cards.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="With --evaluate: seed of the sampled deals and the policies' draws.")
def explain(file: str, as_json: bool, evaluate: bool, deals: int, seed: int) -> None:
    """Explain a position file (FILE '-' reads it from standard input): the legal moves,
    the declarations with their points, the scores; with --evaluate, what each card is
    worth."""
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.position import explain as explain_position
    from bezsim.position import format_explanation, load_position

    position = load_position(file)
    if evaluate:
        from bezsim.position.evaluate import check_evaluable

        check_evaluable(position, deals)
    needs = [("position", [])] + ([("run", ["search"])] if evaluate else [])
    with compiles_said(needs):
        explanation = explain_position(position)
        if evaluate:
            from bezsim.position.evaluate import evaluate as evaluate_position

            explanation["evaluation"] = evaluate_position(position, deals, seed)
    if as_json:
        click.echo(json.dumps(explanation, indent=2, ensure_ascii=False, default=_json_default))
    else:
        click.echo(format_explanation(explanation).rstrip("\n"))


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def compounds(run_dir: str, as_json: bool) -> None:
    """Rate, size and value of compound declarations in a run, with 95% intervals."""
    from bezsim.analysis.compounds import compound_stats, format_stats

    _echo_stats(run_dir, compound_stats(run_dir), format_stats, as_json)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def rubicon(run_dir: str, as_json: bool) -> None:
    """Rubicon rate, carte blanche, triple/quadruple bezique and settlement, with 95% intervals."""
    from bezsim.analysis.rubicon_figures import format_stats, rubicon_stats

    _echo_stats(run_dir, rubicon_stats(run_dir), format_stats, as_json)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def seats(run_dir: str, as_json: bool) -> None:
    """Win rates by seat and by position from the dealer (what leading first is worth), and
    triple bezique, with 95% intervals."""
    from bezsim.analysis.seats import format_stats, seat_stats

    _echo_stats(run_dir, seat_stats(run_dir), format_stats, as_json)


@cli.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=_not_empty,
              help="Output directory [default: RUN_DIR/report].")
@click.option("--title", default=None, help="Report title [default: from the variant].")
def report(run_dir: str, out: str | None, title: str | None) -> None:
    """Write a strategy report of a run: self-contained HTML, Markdown with PNG figures, and
    the report's numbers as JSON."""
    from bezsim.report import write_report

    paths = write_report(run_dir, out, title)
    click.echo(f"html:     {paths['html']}")
    click.echo(f"markdown: {paths['markdown']} (figures in {paths['markdown'].parent / 'figures'})")
    click.echo(f"numbers:  {paths['json']}")


def _echo_stats(run_dir: str, stats: dict[str, Any], formatter, as_json: bool) -> None:
    """The figures, after the run they describe (every figure depends on its variant,
    policies, seed and size)."""
    from bezsim.analysis.load import load_run

    run = load_run(run_dir)
    about = {"run": run_dir, "variant": run.variant, "options": run.options,
             "policies": run.policies, "seed": run.seed, "games": run.n_games}
    if as_json:
        click.echo(json.dumps({"run": about, **stats}, indent=2, default=_json_default))
    else:
        click.echo(f"run: {run_dir}   variant: {run.variant}   policies: "
                   f"{','.join(run.policies)}   seed: {run.seed}   games: {run.n_games:,}")
        click.echo(formatter(stats))


@cli.command("policies")
@click.option("--json", "as_json", is_flag=True, help="Print the policies as JSON.")
def policies_command(as_json: bool) -> None:
    """List the built-in policies and their parameters (with defaults)."""
    from bezsim.policy_specs.registry import describe, describe_data

    if as_json:
        click.echo(json.dumps(describe_data(), indent=2, ensure_ascii=False,
                              default=_json_default))
    else:
        click.echo(describe())


@cli.command()
@click.option("--variant", default="ordinary", show_default=True, shell_complete=_complete_variant,
              help=VARIANT_HELP)
@click.option("--option", "options", multiple=True,
              shell_complete=_complete_option, metavar="NAME=VALUE",
              help="Rule option (repeatable); 'bezsim options' lists them.")
@click.option("--policies", "--policy", "policies",
              shell_complete=_complete_policies, required=True, metavar="P1,P2[,...]",
              help="Two or more distinct policies, comma separated; every pair plays.")
@click.option("--games", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Deals per pair (each is played once per seating).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Root seed; without it a random seed is drawn and printed.")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Engine threads (default: all cores).")
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=_not_empty,
              help="Output directory [default: data/runs/tournament-<variant>-<seed>].")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
def tournament(variant: str, options: tuple[str, ...], policies: str, games: int,
               seed: int | None, threads: int | None, out: str | None, no_progress: bool,
               as_json: bool) -> None:
    """Round robin of policies on duplicate deals: win rate, margin and points per hand."""
    from bezsim import tournament as tour
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.engine_api.games import check_threads
    from bezsim.io.writable import check_writable_dir, write_or_keep

    rules = _make_rules(variant, options)
    names = tour.check_policies(policies)
    drawn = seed is None
    if drawn:
        seed = draw_seed()
    out = out or os.path.join("data", "runs", f"tournament-{rules.variant}-{seed}")
    description = tour.describe_run(rules, names, games, seed)
    # refused before playing (and before the drawn seed is printed): one line of error
    tour.check_out_dir(out, description)
    check_writable_dir(out)
    if threads is not None:
        check_threads(threads)
    if drawn:
        click.echo(f"seed: {seed}", err=True)
    pairs = [("run", [a, b]) for k, a in enumerate(names) for b in names[k + 1:]]
    try:
        with compiles_said(pairs, say=not no_progress, rules=rules, compile_with=names):
            frame = tour.run_tournament(rules, names, games, seed, threads=threads,
                                        progress=not no_progress)
    except KeyboardInterrupt:
        raise Interrupted("interrupted; nothing written") from None
    # the results first: a disk that fails now still leaves them on screen and in a folder
    if as_json:
        click.echo(json.dumps(tour.records(frame), indent=2, default=_json_default))
    else:
        click.echo(tour.format_table(frame, description))
    write_or_keep(lambda where: tour.write_tournament(frame, where, description), out,
                  "the tournament's results")
    if not as_json:
        click.echo(f"\nwritten: {os.path.join(out, tour.PARQUET_NAME)} and {tour.JSON_NAME}")


@cli.command()
@click.option("--variant", default="ordinary", show_default=True, shell_complete=_complete_variant,
              help=VARIANT_HELP)
@click.option("--option", "options", multiple=True,
              shell_complete=_complete_option, metavar="NAME=VALUE",
              help="Rule option (repeatable); 'bezsim options' lists them.")
@click.option("--policy", default="expert", show_default=True,
              help="The policy to tune, optionally with starting values: "
                   "expert(cash=0.8), or @file.json from an earlier tuning.")
@click.option("--against", default="heuristic", show_default=True, metavar="P1[,P2...]",
              help="The fixed opponents; the fitness is the mean result against them.")
@click.option("--params", "param_names", default=None, metavar="NAME[,NAME...]",
              help="The parameters to tune [default: all of the policy's that the "
                   "variant's games read].")
@click.option("--deals", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Duplicate deals per opponent and candidate (each played in every "
                   "seating).")
@click.option("--generations", type=click.IntRange(min=1), default=20, show_default=True,
              help="CMA-ES generations.")
@click.option("--popsize", type=click.IntRange(min=2), default=8, show_default=True,
              help="Candidates per generation.")
@click.option("--sigma", type=click.FloatRange(0, 10, min_open=True), default=0.5,
              show_default=True, help="Initial step, in units of each parameter's step.")
@_long_run_options("Seed of the deals and of the optimiser; without it one is drawn and "
                   "printed.",
                   "Output directory [default: data/runs/tune-<variant>-<policy>-<seed>]; "
                   "rerun with the same settings to resume.")
def tune(variant: str, options: tuple[str, ...], policy: str, against: str,
         param_names: str | None, deals: int, generations: int, popsize: int, sigma: float,
         seed: int | None, threads: int | None, out: str | None, no_progress: bool) -> None:
    """Tune a policy's parameters with CMA-ES on duplicate deals; writes best.json, a
    parameters file for --policies @best.json."""
    from bezsim import tune as tuning
    from bezsim.engine_api.compiling import compiles_said
    from bezsim.engine_api.games import check_threads
    from bezsim.io.writable import check_writable_dir
    from bezsim.policy_specs.registry import spec_of, split_specs

    rules = _make_rules(variant, options)
    start = spec_of(_start_spec(policy))           # parsed once: every step reads it
    info = start.info
    drawn = seed is None
    if drawn:
        seed = draw_seed()
    names = tuple(n.strip() for n in (param_names or "").split(",") if n.strip())
    setup = tuning.TuneSetup(rules.variant, tuple(options), start,
                             tuple(spec_of(b) for b in split_specs(against)), deals, seed,
                             generations, popsize,
                             float(sigma),
                             names or tuple(p.name for p in info.params
                                            if p.read_in(rules.variant)))
    tuning.check_setup(setup)
    if threads is not None:
        check_threads(threads)
    out = out or os.path.join("data", "runs", f"tune-{rules.variant}-{info.name}-{seed}")
    check_writable_dir(out)
    if drawn:
        click.echo(f"seed: {seed}", err=True)
    command = "bezsim tune " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    try:
        with compiles_said([("run", [start, b]) for b in setup.against],
                           say=not no_progress, rules=rules,
                           compile_with=[start, *setup.against]):
            state = tuning.tune(setup, out, threads=threads, progress=not no_progress,
                                command=command)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; finished generations are kept in {out} — resume "
                          "by running the same command again") from None
    what = "settlement per deal" if state["best"]["one_hand"] else "win rate"
    click.echo(f"{what}: {state['start']['fitness']:.4f} at the start, "
               f"{state['best']['fitness']:.4f} best after {state['generation']} generations")
    click.echo(f"best: {state['best']['spec']}")
    click.echo(f"written: {os.path.join(out, tuning.BEST)} (use it as --policies "
               f"@{os.path.join(out, tuning.BEST)})")


@cli.command()
@click.option("--variant", default="ordinary", show_default=True, shell_complete=_complete_variant,
              help=VARIANT_HELP)
@click.option("--start", default="learned", show_default=True,
              help="The weights the first round starts from: learned at the preset's "
                   "weights, learned(name=value,...), or @model.json from an earlier run.")
@click.option("--rounds", type=click.IntRange(min=1), default=3, show_default=True,
              help="Most rounds (record, fit, measure); they stop when one no longer beats "
                   "its start.")
@click.option("--games", type=click.IntRange(min=1), default=800, show_default=True,
              help="Games of learned self-play recorded per round.")
@click.option("--deals", type=click.IntRange(min=1, max=10_000), default=16,
              show_default=True, help="Sampled deals behind search's value of each card.")
@click.option("--horizon", type=click.IntRange(min=0), default=20, show_default=True,
              help="Every card play is recorded once the stock holds at most this many "
                   "cards.")
@click.option("--early", type=click.FloatRange(0, 1), default=0.25, show_default=True,
              help="Chance of recording a card play while the stock is longer.")
@click.option("--value", "value_by", type=click.Choice(["margin", "settlement"]),
              default="margin", show_default=True,
              help="What a play-out is worth to the seat: its side's hand margin, or in "
                   "Rubicon the settlement's stake (R6.8).")
@click.option("--params", "param_names", default=None, metavar="NAME[,NAME...]",
              help="The feature weights to fit (default: all); the others keep the start's "
                   "values. With --early 0 only late card plays are recorded, so fit only "
                   "the weights of those (late_..., last_stock_win, s2_...).")
@click.option("--eval-games", type=click.IntRange(min=1), default=1500, show_default=True,
              help="Duplicate deals of each round's measurements.")
@_long_run_options("Seed of the recorded games and the measurements; without it one is "
                   "drawn and printed.",
                   "Output directory [default: data/runs/learn-<variant>-<seed>]; rerun the "
                   "same command to resume.")
def learn(variant: str, start: str, rounds: int, games: int, deals: int, horizon: int,
          early: float, value_by: str, param_names: str | None, eval_games: int,
          seed: int | None, threads: int | None, out: str | None, no_progress: bool) -> None:
    """Fit learned's weights to search's values of its own card plays, round after round;
    writes model.json, a parameters file for --policies @model.json."""
    import numba

    from bezsim.engine_api.games import check_threads
    from bezsim.io.writable import check_writable_dir
    from bezsim.policy_specs.registry import parse_spec

    rules = _make_rules(variant, ())
    start_spec = _start_spec(start)
    if parse_spec(start_spec)[0].name != "learned":
        raise click.BadParameter(f"{start!r} is not a learned policy", param_hint="--start")
    if value_by == "settlement" and not (rules.definition.one_hand_game
                                         and rules.definition.settlement):
        raise click.BadParameter(f"{rules.variant} has no settlement (only Rubicon's "
                                 "one-hand game has one)", param_hint="--value")
    fitted = _learn_params(param_names)
    try:
        import scipy  # noqa: F401

        from bezsim.learn.run import Plan, check_plan
        from bezsim.learn.run import learn as run_rounds
    except ImportError:
        raise click.ClickException("bezsim learn needs scipy: pip install "
                                   "'bezsim[learn]'") from None
    drawn = seed is None
    if drawn:
        seed = draw_seed()
    n_threads = check_threads(threads) if threads is not None else numba.get_num_threads()
    out = out or os.path.join("data", "runs", f"learn-{rules.variant}-{seed}")
    check_writable_dir(out)
    if drawn:
        click.echo(f"seed: {seed}", err=True)
    from bezsim.learn.generate import Budget

    plan = Plan(rules.variant, seed, games, rounds,
                Budget(deals=deals, horizon=horizon, early=early,
                       settlement=value_by == "settlement"), eval_games, start_spec, fitted)
    check_plan(out, plan)
    try:
        summary = run_rounds(plan, out, threads=n_threads, progress=not no_progress,
                             say=click.echo)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; recorded shards are kept in {out} — resume by "
                          "running the same command again") from None
    click.echo(f"best: {summary['spec']}")
    click.echo(f"written: {os.path.join(out, 'model.json')} (use it as --policies "
               f"@{os.path.join(out, 'model.json')})")


def _learn_params(names: str | None) -> tuple[str, ...]:
    """--params of bezsim learn: feature weights of learned, each named once."""
    from bezsim.policies.learned.weights import FEATURE_NAMES

    if names is None:
        return ()
    chosen = tuple(n.strip() for n in names.split(",") if n.strip())
    unknown = [n for n in chosen if n not in FEATURE_NAMES]
    if unknown or not chosen or len(set(chosen)) != len(chosen):
        what = (f"{unknown[0]!r} is not a feature weight of learned" if unknown
                else "name each weight once" if chosen else "name at least one weight")
        raise click.BadParameter(f"{what} (they are: {', '.join(FEATURE_NAMES)})",
                                 param_hint="--params")
    return chosen


def _start_spec(policy: str) -> str:
    """The tuned policy's starting point as a spec (a parameters file is read now)."""
    from bezsim.policy_specs.registry import canonical, parse_spec

    info, values = parse_spec(policy)
    return canonical(info, values)


@cli.command("options")
@click.option("--variant", default="ordinary", show_default=True,
              shell_complete=_complete_variant, help="Bézique variant.")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
def options_command(variant: str, as_json: bool) -> None:
    """List the rule options of a variant: what each decides (with its section of
    docs/rules.md), its allowed values and its default."""
    from bezsim.rules import OPTION_MEANINGS, option_choices, option_names

    rules = _make_rules(variant, ())
    names = option_names(rules.variant)
    rows = [{"name": name, "meaning": OPTION_MEANINGS[name][0],
             "rules": OPTION_MEANINGS[name][1], "values": option_choices(name),
             "default": rules.options[name]} for name in names]
    if as_json:
        click.echo(json.dumps({"variant": rules.variant, "options": rows}, indent=2,
                              ensure_ascii=False, default=_json_default))
        return
    width = max(len(name) for name in names)
    click.echo(f"options of {rules.variant} (set with --option NAME=VALUE; docs/rules.md R9):")
    for row in rows:
        values = row["values"]
        allowed = values if isinstance(values, str) else ", ".join(values)
        click.echo(f"  {row['name']:<{width}}  {row['meaning']} ({row['rules']})")
        click.echo(f"  {'':<{width}}  {allowed}  [default: {row['default']}]")


def main(argv: list[str] | None = None) -> None:
    """Console entry point (``bezsim = "bezsim.cli:main"``)."""
    cli.main(args=argv, prog_name="bezsim")


if __name__ == "__main__":
    main()
