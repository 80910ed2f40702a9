"""The ``citybuilders`` command line (typer).

Every user error (bad file, unknown option, illegal move) prints one line ``error: ...`` on
stderr and exits with code 2; nothing else prints a traceback.

Language: ``--lang pt-BR`` (before the command), else ``LC_ALL``/``LC_MESSAGES``/``LANG``;
errors, help texts, score breakdowns and the terminal game speak it. JSON output keys and
move notation stay English.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from .core.errors import CitybuildersError, FormatError, OptionError, short
from .core.files import FileTooLarge, NotRegularFile, read_regular_file
from .core.game import SEED_MAX, State, check_seed
from .core.jsonsafe import text_problem
from .core.options import options_markdown, parse_option_text
from .core.registry import game_class, load_game, registered_games
from .core.i18n import LANGUAGES, N_, json_reason, localize, message_of, normalize, set_current
from .core.i18n import current as current_language
from .core.i18n import format_number, format_percent, translations
from .core.i18n import gettext_now as _
from .core.i18n import ngettext_now as ngettext

app = typer.Typer(
    help="citybuilders: play, score and simulate city-building board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sheets_app = typer.Typer(help="Roll Builder city sheets: list them or check a sheet file.",
                         invoke_without_command=True)
app.add_typer(sheets_app, name="sheets")


class UserError(Exception):
    """Raised inside commands for a one-line error with exit code 2."""


def _fail(message: str) -> None:
    raise UserError(message)


# --------------------------------------------------------------------------- helpers
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input file the CLI reads (a finished game's record is far below 1 MB)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _read_json(path: Path) -> Any:
    """Parse a UTF-8 JSON file (a leading BOM is allowed); every problem is a one-line error."""
    try:
        text = read_regular_file(path, MAX_FILE_BYTES).decode("utf-8-sig")
    except FileNotFoundError:
        _fail(N_("{path}: no such file", path=path))
    except NotRegularFile as exc:
        if exc.is_dir:
            _fail(N_("{path}: is a directory, expected a JSON file", path=path))
        _fail(N_("{path}: not a regular file (a device, FIFO or socket), expected a JSON file",
                 path=path))
    except FileTooLarge as exc:
        if exc.size is None:
            _fail(N_("{path}: file too large (more than {MAX_FILE_BYTES} bytes)",
                     path=path, MAX_FILE_BYTES=MAX_FILE_BYTES))
        _fail(N_("{path}: file too large ({size} bytes; at most {MAX_FILE_BYTES} bytes)",
                 path=path, size=exc.size, MAX_FILE_BYTES=MAX_FILE_BYTES))
    except UnicodeDecodeError:
        _fail(N_("{path}: not a UTF-8 text file", path=path))
    except OSError as exc:
        _fail(N_("{path}: cannot read ({strerror})", path=path, strerror=exc.strerror))
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        _fail(N_("{path}: not valid JSON ({msg} at line {lineno} column {colno})",
                 path=path, msg=json_reason(exc), lineno=exc.lineno, colno=exc.colno))
    except RecursionError:
        _fail(N_("{path}: not valid JSON here (nested too deeply)", path=path))
    except ValueError as exc:  # NaN/Infinity, integers of thousands of digits
        _fail(N_("{path}: not valid JSON here ({split})", path=path, split=str(exc).split(';')[0]))
    problem = text_problem(value, path.name)
    if problem is not None:
        _fail(problem)
    return value


def _check_writable(path: Path) -> None:
    """Refuse, before any work is done, an output file that cannot be written: a directory,
    a place the user may not write (``/proc/x.csv``, a read-only file), a folder that cannot
    be made. One line ``error: dir.json: cannot write (Is a directory)``, exit 2. An existing
    file is opened for appending (never truncated here); a probe file made here is removed."""
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        existed = path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        _fail(N_("{out}: cannot write ({strerror})", out=path, strerror=exc.strerror or exc))


def _game_options(
    game: str,
    option: list[str] | None,
    flags: dict[str, Optional[str]],
) -> dict[str, Any]:
    """Options from ``-o name=value`` and the named flags (``--sections`` etc.)."""
    cls = game_class(game)
    specs = {o.name: o for o in cls.option_specs}
    given: dict[str, Any] = {}
    pairs: list[tuple[str, str]] = []
    for item in option or []:
        if "=" not in item:
            _fail(N_("--option {item!r}: expected name=value", item=item))
        name, _sep, value = item.partition("=")
        pairs.append((name.strip(), value))
    pairs += [(k, v) for k, v in flags.items() if v is not None]
    for name, value in pairs:
        if name == "sheet_file" and "sheet_doc" in specs:  # Roll Builder: the CLI reads the file
            given["sheet_doc"] = _sheet_document(value)
            continue
        if name == "sections_file" and "sections_doc" in specs:  # Kingdom Builder: likewise
            given["sections_doc"] = _sections_document(value)
            continue
        if name not in specs:
            allowed = ", ".join(sorted(specs)) or "(none)"
            _fail(N_("unknown option '{name}' for {name2}; allowed: {allowed}",
                     name=name, name2=cls.name, allowed=allowed))
        given[name] = parse_option_text(specs[name], value)
    return given


def _sheet_document(path: str) -> Any:
    """``-o sheet_file=PATH``: read a user sheet (a regular file of at most 64 KiB) for the
    ``sheet_doc`` option, so the game never opens files and the record carries the sheet."""
    from .games.roll_builder.loader import read_sheet_document

    try:
        return read_sheet_document(path.strip())
    except CitybuildersError as exc:
        _fail(message_of(exc))


def _sections_document(path: str) -> Any:
    """``-o sections_file=PATH``: read a custom Kingdom Builder sections file (a regular file
    of at most 64 KiB) for the ``sections_doc`` option, so the game never opens files and the
    record carries the sections."""
    from .games.kingdom_builder.loader import read_sections_document

    try:
        return read_sections_document(path.strip())
    except CitybuildersError as exc:
        _fail(message_of(exc))


def _seats(players: str) -> list[str]:
    from .bots import bot_names

    seats = [p.strip().lower() for p in players.split(",") if p.strip()]
    allowed = ["human", *bot_names()]
    for s in seats:
        if s not in allowed:
            _fail(N_("--players: unknown seat {s!r}; allowed: {allowed}",
                     s=s, allowed=', '.join(allowed)))
    if not seats:
        _fail(N_("--players: give at least one seat, e.g. human,greedy"))
    return seats


_FLAG_HELPS = {
    "sections": "Kingdom Builder: the 4 board sections, e.g. tavern,paddock,oasis:180,farm",
    "cards": "Kingdom Builder: the 3 Kingdom Builder cards, e.g. fishermen,knights,lords",
    "preset": "Kingdom Builder: a named setup, e.g. first-game",
    "sheet": "Roll Builder: city sheet id (see 'citybuilders sheets')",
    "conditions": "Sprawlopolis: the 3 scoring-condition card numbers, e.g. 1,7,12",
    "expansions": "Kingdom Builder: expansions in play, e.g. crossroads",
}
"""Help of the shortcut flags; each sets the game option of that name (same as -o name=...)."""


def _bots_text() -> str:
    from .bots import bot_names

    return ", ".join(bot_names())


def _load_state(file: Path, data: Any, upto: Optional[int]) -> Any:
    """The state of a saved position (``State.to_json()``) or of a record replayed to ``upto``."""
    from .core.records import replay as do_replay

    if isinstance(data, dict) and "actions" in data and "position" not in data:
        rec = _record(data)
        hidden = _first_hidden(rec.actions)
        if hidden is not None and (upto is None or upto > hidden):
            _fail(N_("{file}: move {hidden} is hidden (null): a running game's export replays "
                     "only up to move {hidden2} (use --upto {hidden2})",
                     file=file, hidden=hidden + 1, hidden2=hidden))
        return do_replay(rec, upto)
    if upto is not None:
        _fail(N_("--upto: only for a record (a saved position is one position)"))
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        _fail(N_("{file}: expected a saved position or a record with a 'game' key", file=file))
    if "position" not in data:
        _fail(N_("{file}: neither a record (its 'actions' are missing) nor a saved position "
                 "(its 'position' and 'history' are missing)", file=file))
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        _fail(N_("{file}: 'options' must be an object", file=file))
    g = load_game(data["game"], **opts)
    if str(data.get("rules_version", g.rules_version)) != g.rules_version:
        _fail(N_("{file}: saved with rules version {get}, this is {rules_version}",
                 file=file, get=data.get('rules_version'), rules_version=g.rules_version))
    for key in ("num_players", "seed", "position", "history"):
        if key not in data:
            _fail(N_("{file}: missing key '{key}'", file=file, key=key))
    return g.state_from_json(data, verify=True)


def _record(data: Any) -> Any:
    """A record for ``moves`` and ``replay``: ``load_record`` and the one seed range of the
    platform (``core.game.check_seed``, as the server's import): a seed out of range would
    replay another board and fail at a move far from the cause."""
    from .core.errors import RecordError
    from .core.records import load_record

    rec = load_record(data)
    try:
        check_seed(rec.seed, "record: seed")
    except OptionError as exc:
        raise RecordError(message_of(exc)) from None
    return rec


def _first_hidden(actions: list[Any]) -> Optional[int]:
    """Index of the first action a running game's export hides (``null``), or None."""
    for i, entry in enumerate(actions):
        if entry is None or (isinstance(entry, (list, tuple)) and None in entry):
            return i
    return None


# --------------------------------------------------------------------------- commands
def _lang_code(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    lang = normalize(value)
    if lang is None:
        _fail(N_("--lang {value!r}: unknown language; allowed: {allowed}", value=value,
                 allowed=", ".join(code.replace("_", "-") for code in LANGUAGES)))
    return lang


@app.callback()
def _root(
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG",
        help="language of the messages: en, pt-BR or zh-Hant (default: $LC_ALL, $LANG)"),
) -> None:
    """citybuilders: play, score and simulate city-building board games."""
    code = _lang_code(lang)
    if code is not None:
        set_current(code)


@app.command()
def games() -> None:
    """List the registered games."""
    for name in registered_games():
        cls = game_class(name)
        players = (f"{cls.min_players}" if cls.min_players == cls.max_players
                   else f"{cls.min_players}-{cls.max_players}")
        typer.echo(f"{name:18} {cls.title:32} "
                   + _("players {players:5} rules v{version}", players=players,
                       version=cls.rules_version))


@app.command()
def options(
    game: Optional[str] = typer.Argument(None, help="game id; all games if omitted"),
    markdown: bool = typer.Option(False, "--markdown", help="print docs/rules-options.md"),
) -> None:
    """Show every setup and rules option of a game (defaults, allowed values, sources)."""
    names = [game_class(game).name] if game else registered_games()
    if markdown:
        parts = [
            "# Rules and setup options",
            "",
            "Generated by `citybuilders options --markdown` from the option declarations in the code.",
            "Pass options as keyword arguments to `citybuilders.load_game(name, **options)`, as",
            "`-o name=value` on the command line (lists comma-separated), or in the web app's",
            "create-game form. Rules options default to the research digest's recommendation;",
            "the alternatives are the other readings of a disputed rule.",
            "",
        ]
        for name in names:
            cls = game_class(name)
            parts.append(options_markdown(name, cls.title, cls.option_specs))
        typer.echo("\n".join(parts).rstrip() + "\n", nl=False)
        return
    lang = current_language()
    tr = translations(lang).gettext if lang != "en" else str  # English: the declarations

    def t(text: str) -> str:
        return tr(text) if text else text

    for name in names:
        cls = game_class(name)
        typer.echo(f"{cls.title} ({name})")
        for kind, heading in (("setup", _("Setup")), ("rule", _("Rule variants"))):
            group = [o for o in cls.option_specs if o.kind == kind]
            if not group:
                continue
            typer.echo(f"  {heading}")
            for o in group:
                only = (" " + _("({expansion} only)", expansion=o.expansion.capitalize())
                        if o.expansion else "")
                typer.echo(f"    {t(o.title)}{only}: {t(o.question)}" if o.question
                           else f"    {t(o.title)}{only}")
                typer.echo("      " + _("{name} = {default}  [allowed: {allowed}]",
                                        name=o.name, default=repr(o.default),
                                        allowed=o.allowed_text(t)))
                typer.echo(f"      {t(o.doc)}")
                if o.note:
                    typer.echo(f"      {t(o.note)}")
                for k, v in o.alternatives.items():
                    typer.echo(f"      {k}: {t(v)}")
                if o.source:
                    # a bibliographic reference (rulebook and digest sections), kept as written
                    typer.echo("      " + _("source: {source}", source=o.source))


@app.command()
def score(
    game: str = typer.Argument(..., help="game id, e.g. kingdom-builder"),
    file: Path = typer.Argument(..., help="position file (see docs/formats.md)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
    # -o sections_file=PATH (Kingdom Builder): the file's 'sections' may name your own
    # sections (docs/formats.md); the file's own 'options' win over -o
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="name=value"),
) -> None:
    """Score a finished or hypothetical position (score calculator)."""
    g = load_game(game, **_game_options(game, option, {}))
    data = _read_json(file)
    if not isinstance(data, dict):
        _fail(N_("{file}: expected a JSON object", file=file))
    named = data.get("game")
    if named is not None and (not isinstance(named, str) or game_class(named).name != g.name):
        _fail(N_("{file}: 'game' is {named!r}, but this command scores {name}",
                 file=file, named=named, name=g.name))
    result = g.score_file(data)
    typer.echo(json.dumps(result.to_json()) if as_json else result.to_text())


@app.command()
def moves(
    file: Path = typer.Argument(..., help="a saved position ('save FILE' at the 'play' prompt, "
                                "or State.to_json()) or a record"),
    upto: Optional[int] = typer.Option(None, "--upto", min=0,
                                       help="a record: the position after this many moves"),
    as_json: bool = typer.Option(False, "--json", help="the legal moves as JSON (for scripts)"),
) -> None:
    """List the legal actions of a saved position (or of a record's position), in notation.

    ``--json`` prints one object: ``{"game", "move_number", "terminal", "chance",
    "to_act": [player...], "moves": [{"player", "action", "notation"}...],
    "chance_outcomes": [{"action", "notation", "probability"}...]}`` (players 0-based; see
    docs/formats.md)."""
    state = _load_state(file, _read_json(file), upto)
    if as_json:
        typer.echo(json.dumps(_moves_json(state)))
        return
    if state.is_terminal():
        typer.echo(_("(game over: no legal actions)"))
        return
    if state.is_chance_node():
        typer.echo(_("(chance node: {outcomes})", outcomes=", ".join(
            f"{state.action_to_string(a)} p={p:.3f}" for a, p in state.chance_outcomes())))
        return
    for p in state.active_players():
        for a in state.legal_actions(p):
            prefix = f"P{p + 1} " if len(state.active_players()) > 1 else ""
            typer.echo(prefix + state.action_to_string(a, p))


def _moves_json(state: State) -> dict[str, Any]:
    """The legal moves of ``state`` as the documented ``moves --json`` object."""
    chance = state.is_chance_node()
    return {
        "game": state.game.name,
        "move_number": state.move_number(),
        "terminal": state.is_terminal(),
        "chance": chance,
        "to_act": state.active_players(),
        "moves": [{"player": p, "action": a, "notation": state.action_to_string(a, p)}
                  for p in state.active_players() for a in state.legal_actions(p)],
        "chance_outcomes": [{"action": a, "notation": state.action_to_string(a),
                             "probability": pr} for a, pr in state.chance_outcomes()]
        if chance else [],
    }


@app.command()
def play(
    game: str = typer.Argument(..., help="game id"),
    players: str = typer.Option("human,greedy", "--players", "-p",
                                help="comma-separated seats, one per player: human or a bot "
                                "(easy, normal, hard, expert, random, greedy, ismcts)"),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, max=SEED_MAX,
                                       help="seed, 0 to 2**63-1 (random if omitted)"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="name=value"),
    sections: Optional[str] = typer.Option(None, help=_FLAG_HELPS["sections"]),
    cards: Optional[str] = typer.Option(None, help=_FLAG_HELPS["cards"]),
    preset: Optional[str] = typer.Option(None, help=_FLAG_HELPS["preset"]),
    sheet: Optional[str] = typer.Option(None, help=_FLAG_HELPS["sheet"]),
    conditions: Optional[str] = typer.Option(None, help=_FLAG_HELPS["conditions"]),
    expansions: Optional[str] = typer.Option(None, help=_FLAG_HELPS["expansions"]),
    color: Optional[bool] = typer.Option(None, "--color/--no-color",
                                         help="ANSI colours (default: when stdout is a terminal)"),
) -> None:
    """Play in the terminal against bots or hot-seat (type 'help' at the prompt)."""
    from .core.rng import fresh_seed
    from .terminal import play_terminal

    flags = dict(sections=sections, cards=cards, preset=preset, sheet=sheet,
                 conditions=conditions, expansions=expansions)
    g = load_game(game, **_game_options(game, option, flags))
    seats = _seats(players)
    play_terminal(g, seats, seed=fresh_seed() % 10**6 if seed is None else seed,
                  color=sys.stdout.isatty() if color is None else color)


@app.command()
def simulate(
    game: str = typer.Argument(..., help="game id"),
    games_: int = typer.Option(100, "--games", "-n", min=1, help="number of games"),
    players: str = typer.Option("greedy,random", "--players", "-p",
                                help="comma-separated bots, one per seat (easy, normal, hard, "
                                     "expert, random, greedy, ismcts)"),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX,
                             help="base seed, 0 to 2**63-1 (the batch is deterministic)"),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="parallel processes (--executor local)"),
    out: Optional[Path] = typer.Option(None, "--out",
                                       help="per-game rows, written as they finish: .csv, .jsonl "
                                            "or .parquet (needs the parquet extra: pyarrow)"),
    by: Optional[str] = typer.Option(None, "--by",
                                     help="group results by a row field, e.g. conditions, sheet, setup"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="name=value"),
    sections: Optional[str] = typer.Option(None, help=_FLAG_HELPS["sections"]),
    cards: Optional[str] = typer.Option(None, help=_FLAG_HELPS["cards"]),
    preset: Optional[str] = typer.Option(None, help=_FLAG_HELPS["preset"]),
    sheet: Optional[str] = typer.Option(None, help=_FLAG_HELPS["sheet"]),
    conditions: Optional[str] = typer.Option(None, help=_FLAG_HELPS["conditions"]),
    expansions: Optional[str] = typer.Option(None, help=_FLAG_HELPS["expansions"]),
    plot: Optional[Path] = typer.Option(None, "--plot",
                                        help="write plots (.png, .svg or .pdf): scores, win rate by seat, groups"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="progress bar"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
    executor: str = typer.Option("local", "--executor",
                                 help="local (process pool) or ray (needs the ray extra)"),
    address: str = typer.Option("auto", "--address",
                                help="--executor ray: auto, host:port or ray://host:port"),
    resume: bool = typer.Option(False, "--resume",
                                help="complete an interrupted run of the same command (needs --out)"),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="start again over the rows of an interrupted run in "
                                        "--out (without it such a file is refused)"),
    shard: Optional[str] = typer.Option(None, "--shard",
                                        help="I/N: run only slice I of N (contiguous game indices)"),
    batch_size: Optional[int] = typer.Option(None, "--batch-size", min=1,
                                             help="games per task (default: measured, ~0.5 s of work)"),
    report: Optional[Path] = typer.Option(None, "--report",
                                          help="also write an HTML report of the rows (needs --out)"),
) -> None:
    """Run many bot games and print a summary table (and optionally per-game rows).

    Rows stream to --out as games finish (never all in memory); --resume completes a run after
    an interruption; --shard splits a run across machines; --executor ray runs on a Ray cluster.
    The same seed gives byte-identical rows whatever the executor, jobs or batch size.
    """
    from rich.console import Console
    from rich.table import Table

    from .sim.batch import BatchSpec
    from .sim.executor import ExecutorError, make_executor
    from .sim.run import OUT_SUFFIXES, RunError, check_group_field, parse_shard, run_to_file

    seats = _seats(players)
    if "human" in seats:
        _fail(N_("--players: simulate takes bots only ({bots_text})", bots_text=_bots_text()))
    flags = dict(sections=sections, cards=cards, preset=preset, sheet=sheet,
                 conditions=conditions, expansions=expansions)
    opts = _game_options(game, option, flags)
    g = load_game(game, **opts)
    g.check_num_players(len(seats))
    if out is not None and out.suffix.lower() not in OUT_SUFFIXES:
        _fail(N_("--out {out}: use a .csv, .jsonl or .parquet file name", out=out))
    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        _fail(N_("--plot {plot}: use a .png, .svg or .pdf file name", plot=plot))
    if report is not None and report.suffix.lower() not in (".html", ".htm"):
        _fail(N_("--report {report}: give an .html file name", report=report))
    if report is not None and out is None:
        _fail(N_("--report needs --out ROWS (.csv, .jsonl or .parquet): the report is made "
                 "from the rows written there"))
    if executor not in ("local", "ray"):
        _fail(N_("--executor {executor!r}: allowed: local, ray", executor=executor))
    if address != "auto" and executor != "ray":
        _fail(N_("--address {address}: only with --executor ray (the local executor runs "
                 "on this computer)", address=short(address)))
    if resume and overwrite:
        _fail(N_("--resume and --overwrite: give one of them (complete the interrupted run, "
                 "or start again)"))
    for path in (out, plot, report):
        if path is not None:
            _check_writable(path)
    try:
        shard_ = parse_shard(shard) if shard else None
    except RunError as exc:
        _fail(message_of(exc))
    spec = BatchSpec(g.name, tuple(seats), opts)
    try:
        check_group_field(spec, by, seed)
    except RunError as exc:
        _fail(message_of(exc))
    try:
        ex = make_executor(executor, jobs, address)
    except ExecutorError as exc:
        _fail(message_of(exc))
    console = Console(stderr=True)
    show = progress and not quiet and console.is_terminal
    try:
        if show:
            with _rate_progress(console) as bar:
                task = bar.add_task(f"{g.name}", total=None)
                summ = run_to_file(spec, games_, seed, ex, out, by=by, resume=resume,
                                   overwrite=overwrite, shard=shard_, batch_size=batch_size,
                                   progress=lambda k, n: bar.update(task, completed=k, total=n))
        else:
            summ = run_to_file(spec, games_, seed, ex, out, by=by, resume=resume,
                               overwrite=overwrite, shard=shard_, batch_size=batch_size)
    except RunError as exc:
        _fail(message_of(exc))
    except OSError as exc:  # checked writable above; e.g. the disk filled up during the run
        if exc.filename is None and exc.errno != errno.ENOSPC:
            raise
        _fail(N_("{out}: cannot write ({strerror})", out=exc.filename or out,
                 strerror=exc.strerror or exc))
    finally:
        ex.close()
    summary = summ.result()
    con = Console()
    table = Table(title=_("{title}: {games} games, seed {seed}", title=g.title,
                          games=summary["games"], seed=seed))
    for col, head in (("seat", _("seat")), ("bot", _("bot")), ("mean", _("mean")),
                      ("median", _("median")), ("stdev", _("stdev")), ("min", _("min")),
                      ("max", _("max")), ("win rate", _("win rate"))):
        table.add_column(head, justify="right" if col not in ("bot",) else "left")
    for s in summary["seats"]:
        table.add_row(str(s["seat"] + 1), s["bot"], f"{s['mean']:.2f}", f"{s['median']:.1f}",
                      f"{s['stdev']:.2f}", f"{s['min']:.0f}", f"{s['max']:.0f}",
                      f"{s['win_rate']:.1%}" if len(seats) > 1 or "won_rate" in summary else "—")
    con.print(table)
    con.print(_("mean game length: {length} player actions",
                length=format_number(summary["mean_length"], current_language(), 1)))
    if "won_rate" in summary:
        con.print(_("target reached: {rate} of games",
                    rate=format_percent(summary["won_rate"], current_language())))
    if "ranks" in summary:
        total = summary["games"]
        con.print(_("ranks:"))
        for rank, count in sorted(summary["ranks"].items(), key=lambda kv: -kv[1]):
            con.print(f"  {rank:>24} {count:6} {'#' * max(1, round(40 * count / total))}")
    if "groups" in summary:
        gt = Table(title=_("by {field}", field=by))
        gt.add_column(by or _("group"))
        gt.add_column(_("games"), justify="right")
        gt.add_column(_("mean score"), justify="right")
        has_won = any("won_rate" in v for v in summary["groups"].values())
        if has_won:
            gt.add_column(_("target reached"), justify="right")
        for key, v in summary["groups"].items():
            cells = [key, str(v["games"]), f"{v['mean_score']:.2f}"]
            if has_won:
                cells.append(f"{v.get('won_rate', 0):.1%}")
            gt.add_row(*cells)
        con.print(gt)
    if out is not None:
        con.print(ngettext("wrote {n} row to {out}", "wrote {n} rows to {out}",
                           summary["games"], out=out))
    if plot is not None:
        from .sim.plots import plot_summary

        try:
            plot_summary(None, summary, seats, plot, title=f"{g.title}: {summary['games']} "
                         "games", histograms=summ.score_histograms())
        except OSError as exc:  # e.g. the disk filled up during the run
            _fail(N_("{out}: cannot write ({strerror})", out=plot, strerror=exc.strerror or exc))
        con.print(_("wrote plots to {plot}", plot=plot))
    if report is not None and out is not None:
        _write_report(out, report, con)


def _rate_progress(console: Any) -> Any:
    """A rich progress bar on ``console`` with games done, rate (games/s) and ETA."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    class _Rate(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "? games/s")

    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), _Rate(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=console, transient=True)


def _write_report(rows: Path, out: Path, con: Any) -> None:
    from .sim.report import ReportError, write_report

    try:
        info = write_report(rows, out)
    except ReportError as exc:
        _fail(message_of(exc))
    con.print(ngettext("wrote report on {n} game to {out}", "wrote report on {n} games to {out}",
                       info["games"], out=out))


@app.command()
def report(
    rows: Path = typer.Argument(..., help="per-game rows from 'simulate --out' (.csv, .jsonl, .parquet)"),
    out: Path = typer.Option(Path("report.html"), "--out", help="the HTML file to write"),
) -> None:
    """One self-contained HTML report of simulation rows: plots, intervals and significance."""
    from rich.console import Console

    if out.suffix.lower() not in (".html", ".htm"):
        _fail(N_("--out {out}: use an .html file name", out=out))
    _write_report(rows, out, Console())


@app.command()
def tournament(
    game: str = typer.Argument(..., help="game id"),
    players: str = typer.Option(..., "--players", "-p",
                                help="comma-separated bots taking part, e.g. greedy,random,ismcts"),
    games_: int = typer.Option(20, "--games", "-n", min=1, help="games per seat order"),
    seats: Optional[int] = typer.Option(None, "--seats", min=1,
                                        help="players per game (default: 2, or the game's minimum)"),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX,
                             help="base seed, 0 to 2**63-1 (the tournament is deterministic)"),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="parallel processes"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="name=value"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="also write the results as JSON"),
) -> None:
    """Round-robin of bots over every seat order; Bradley-Terry ratings with 95-percent intervals."""
    from rich.console import Console
    from rich.table import Table

    from .sim.tournament import TournamentError, run_tournament

    names = [p.strip().lower() for p in players.split(",") if p.strip()]
    if "human" in names:
        _fail(N_("--players: a tournament takes bots only ({bots_text})", bots_text=_bots_text()))
    _seats(",".join(names) or " ")
    opts = _game_options(game, option, {})
    g = load_game(game, **opts)
    if json_out is not None:
        _check_writable(json_out)
    try:
        res = run_tournament(g.name, names, games_, seats=seats, seed=seed, jobs=jobs,
                             options=opts)
    except TournamentError as exc:
        _fail(message_of(exc))
    con = Console()
    table = Table(title=_("{title}: {games} games over {orders} seat orders, seed {seed}",
                          title=g.title, games=res["games"], orders=len(res["seatings"]),
                          seed=seed))
    for col, head in (("rank", _("rank")), ("bot", _("bot")), ("rating", _("rating")),
                      ("95% CI", _("95% CI")), ("games", _("games")), ("wins", _("wins")),
                      ("win rate", _("win rate")), ("95% CI (Wilson)", _("95% CI (Wilson)"))):
        table.add_column(head, justify="left" if col == "bot" else "right")
    for rank, r in enumerate(res["ratings"], 1):
        table.add_row(str(rank), r["bot"], f"{r['rating']:.0f}",
                      f"{r['ci'][0]:.0f} .. {r['ci'][1]:.0f}", str(r["games"]),
                      f"{r['wins']:g}", f"{r['win_rate']:.1%}",
                      f"{r['win_ci'][0]:.1%} .. {r['win_ci'][1]:.1%}")
    con.print(table)
    con.print(_("ratings: Bradley-Terry on an Elo scale (400 log10), mean 0; intervals from the "
                "Fisher information"))
    if json_out is not None:
        try:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:  # e.g. the disk filled up during the run
            _fail(N_("{out}: cannot write ({strerror})", out=json_out,
                     strerror=exc.strerror or exc))
        con.print(_("wrote {path}", path=json_out))


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a record (see docs/formats.md)"),
    upto: Optional[int] = typer.Option(None, "--upto", min=0, help="stop after this many moves"),
) -> None:
    """Replay a record: print each move in notation and the final scores."""
    from .core.records import replay as do_replay
    from .terminal import format_result, format_scores

    rec = _record(_read_json(file))
    hidden = _first_hidden(rec.actions)
    note = ""
    if hidden is not None and (upto is None or upto > hidden):
        upto = hidden
        note = _("(moves from {first} on are hidden: this record was exported from a running "
                 "game; a finished game's record replays in full)", first=hidden + 1)
    def show(i: int, actor: int, text: str) -> None:
        who = _("chance") if actor < 0 else f"P{actor + 1}"
        typer.echo(f"{i:4}. {who:7} {text}")

    final = do_replay(rec, upto, on_move=show)
    typer.echo("")
    if note:
        typer.echo(note)
    if final.is_terminal():
        typer.echo(format_scores(final))
        typer.echo(format_result(final))
    else:
        typer.echo(_("scores after move {n} of {total} (game not over):",
                     n=final.move_number(), total=len(rec.actions)))
        typer.echo(format_scores(final))


@app.command()
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host",
        help="address to listen on: 127.0.0.1 (the default) = this computer only; "
             "0.0.0.0 = every network of this computer, so a friend on the same network "
             "opens http://<this computer's LAN address>:<port>/ (printed at start-up; "
             "browse to that address yourself so invite links carry it)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port"),
    db: Optional[str] = typer.Option(None, "--db",
                                     help="SQLAlchemy URL (default: SQLite in the user data "
                                          "dir; postgresql+psycopg://user@host/db for several "
                                          "servers)"),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="server processes on this port (above 1 needs PostgreSQL)"),
    create_rate: int = typer.Option(30, "--create-rate", min=0,
                                    help="new games per minute per client address "
                                    "(429 past it; 0: no limit)"),
    max_live_games: Optional[int] = typer.Option(
        None, "--max-live-games", min=1,
        help="most games kept in memory, least recently used out first "
             "(default 2000 or $CITYBUILDERS_MAX_LIVE_GAMES)"),
    idle_seconds: Optional[float] = typer.Option(
        None, "--idle-seconds", min=0,
        help="a running game without requests for this long leaves memory "
             "(default 900 or $CITYBUILDERS_IDLE_SECONDS)"),
    finished_seconds: Optional[float] = typer.Option(
        None, "--finished-seconds", min=0,
        help="the same for finished and imported games "
             "(default 60 or $CITYBUILDERS_FINISHED_SECONDS)"),
) -> None:
    """Run the web app: play every game in the browser (vs bots, hot-seat, online).

    SQLite: one server per database file, a second one is refused (exit 2). PostgreSQL: any
    number of servers (``--workers N``, or ``serve`` on other ports and hosts behind a load
    balancer) serve every game at once (docs/server.md, "Running several servers"). A database
    that cannot be opened or upgraded (read-only, locked, unreachable) is exit 2. Games that
    leave memory are replayed from the database when next requested."""
    from dataclasses import replace

    from .server import run
    from .server.manager import MemoryLimits

    limits = MemoryLimits.from_env()
    if max_live_games is not None:
        limits = replace(limits, max_live_games=max_live_games)
    if idle_seconds is not None:
        limits = replace(limits, idle_seconds=idle_seconds)
    if finished_seconds is not None:
        limits = replace(limits, finished_seconds=finished_seconds)
    if workers > 1:
        from .server.workers import run_workers

        run_workers(host, port, db, workers, limits=limits, create_rate=create_rate or None)
        return
    run(host=host, port=port, db=db, limits=limits, create_rate=create_rate or None)


@sheets_app.callback()
def sheets(ctx: typer.Context) -> None:
    """List the shipped Roll Builder city sheets."""
    if ctx.invoked_subcommand is None:
        from .games.roll_builder.render import list_sheets

        typer.echo(list_sheets())


@sheets_app.command("check")
def sheets_check(file: Path = typer.Argument(..., help="a city-sheet file")) -> None:
    """Validate a city-sheet file against the schema."""
    from .games.roll_builder.render import check_sheet

    _read_json(file)  # a missing, unreadable, binary or non-JSON file fails here in one line
    typer.echo(check_sheet(str(file)))


def _click_classes(name: str) -> tuple[type, ...]:
    """``name`` from click and from the click copy typer bundles (``typer._click``)."""
    import importlib

    found = []
    for module in ("click.exceptions", "typer._click.exceptions"):
        try:
            cls = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if cls is not None:
            found.append(cls)
    return tuple(found)


def _argv_language(args: list[str]) -> Optional[str]:
    """The ``--lang`` given before the command (so usage errors already speak it), or None."""
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(args):
            return normalize(args[i + 1])
        if a.startswith("--lang="):
            return normalize(a.split("=", 1)[1])
        if not a.startswith("-"):
            break  # the command: its own options come after
    return None


def help_texts(command: Any) -> list[str]:
    """Every help text of a click command tree (commands and parameters), for the catalog
    (scripts/i18n.py adds them as msgids)."""
    out: list[str] = []
    for text in (getattr(command, "help", None), getattr(command, "short_help", None)):
        if text:
            out.append(text)
    for p in getattr(command, "params", []):
        if getattr(p, "help", None):
            out.append(p.help)
    for sub in getattr(command, "commands", {}).values():
        out += help_texts(sub)
    return out


def localize_help(command: Any, lang: str) -> None:
    """Translate the help texts of a click command tree in place (and typer's panel titles)."""
    if lang == "en":
        return
    for attr in ("help", "short_help"):
        text = getattr(command, attr, None)
        if text:
            setattr(command, attr, localize(text, lang))
    for p in getattr(command, "params", []):
        if getattr(p, "help", None):
            p.help = localize(p.help, lang)
    _localize_help_option(command, lang)
    for sub in getattr(command, "commands", {}).values():
        localize_help(sub, lang)
    localize_click(lang)
    try:
        import typer.rich_utils as ru
    except ImportError:  # pragma: no cover
        return
    for name, text in (("ARGUMENTS_PANEL_TITLE", N_("Arguments")),
                       ("OPTIONS_PANEL_TITLE", N_("Options")),
                       ("COMMANDS_PANEL_TITLE", N_("Commands")),
                       ("REQUIRED_LONG_STRING", N_("[required]")),
                       ("DEFAULT_STRING", N_("[default: {}]"))):
        if hasattr(ru, name):
            setattr(ru, name, localize(text, lang))


def localize_click(lang: str) -> None:
    """The "Usage:" prefix typer's bundled click writes itself, in the current language
    (``_`` at the moment it is written, so one process may switch languages); its usage
    errors are translated by :func:`click_message`, ``--help``'s own help by
    :func:`localize_help`."""
    try:
        from typer._click import formatting
    except ImportError:  # pragma: no cover - another typer: its words stay English
        return
    cls = formatting.HelpFormatter
    if getattr(cls, "_cb_plain_write_usage", None) is not None:
        return
    plain = cls.write_usage
    cls._cb_plain_write_usage = plain  # type: ignore[attr-defined]

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        plain(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

    cls.write_usage = write_usage  # type: ignore[method-assign]


def plain_flags(command: Any) -> None:
    """No value type beside an option that takes no value: typer's help shows ``<bool>`` for
    ``--help``, ``--json``, ``--color/--no-color``..., which reads as if a value were typed
    after them. Sets their metavar to "" in the whole command tree (in place)."""
    try:
        from typer._click.core import Context
        help_opt = command.get_help_option(Context(command))
    except Exception:  # noqa: BLE001 - another typer: its help stays as it is
        help_opt = None
    for p in [*getattr(command, "params", []), *([help_opt] if help_opt is not None else [])]:
        if getattr(p, "is_flag", False):
            p.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        plain_flags(sub)


def _localize_help_option(command: Any, lang: str) -> None:
    try:
        from typer._click.core import Context
        opt = command.get_help_option(Context(command))
    except Exception:  # noqa: BLE001 - another typer: the help option keeps its words
        return
    if opt is not None and opt.help == "Show this message and exit.":
        opt.help = localize(N_("Show this message and exit."), lang)


_CLICK_ERRORS: list[tuple[str, str]] = [
    (r"No such option: (?P<name>\S+)", N_("no such option: {name}")),
    (r"No such command (?P<name>'[^']*')\.", N_("no such command: {name}")),
    (r"Missing argument (?P<name>'[^']*')\.", N_("missing argument {name}")),
    (r"Missing option (?P<name>'[^']*')\.", N_("missing option {name}")),
    (r"Missing parameter: (?P<name>.*)", N_("missing parameter: {name}")),
    (r"Got unexpected extra arguments? ?\(?s?\)? \((?P<args>.*)\)",
     N_("unexpected extra arguments: {args}")),
    (r"Option (?P<name>'[^']*') requires an argument\.", N_("option {name} needs a value")),
    (r"Option (?P<name>'[^']*') does not take a value\.", N_("option {name} takes no value")),
    (r"Invalid value for (?P<name>.+?): (?P<value>'.*') is not one of (?P<choices>.*)\.",
     N_("invalid value for {name}: {value}; allowed: {choices}")),
    (r"Invalid value for (?P<name>.+?): Input should be a valid integer.*",
     N_("invalid value for {name}: expected a whole number")),
    (r"Invalid value for (?P<name>.+?): Input should be a valid number.*",
     N_("invalid value for {name}: expected a number")),
    (r"Invalid value for (?P<name>.+?): Input should be a valid boolean.*",
     N_("invalid value for {name}: expected true or false")),
    (r"Invalid value for (?P<name>.+?): .*", N_("invalid value for {name}")),
]
"""The usage errors of typer's bundled click (English f-strings, no gettext) -> our message
with the same fields; any other message of click stays as click wrote it."""


def click_message(message: str, lang: str) -> str:
    """A click usage error's one-line ``message`` in ``lang`` (:data:`_CLICK_ERRORS`)."""
    if lang == "en":
        return message
    import re

    for pattern, msg in _CLICK_ERRORS:
        m = re.fullmatch(pattern, message)
        if m:
            return localize(N_(str(msg), **m.groupdict()), lang)
    return message


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the exit code (2 for user errors).

    Every user error — ours, or a usage error found by typer/click (bad flag value, missing
    argument, unknown option) — prints one line ``error: ...`` on stderr.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        set_current(_argv_language(args))
        import typer.main

        command = typer.main.get_command(app)
        plain_flags(command)
        localize_help(command, current_language())
        rv = command.main(args=args, prog_name="citybuilders", standalone_mode=False)
        if rv == 130:  # typer turns Ctrl-C (KeyboardInterrupt) into exit code 130
            typer.echo(_("interrupted"), err=True)
            return 130
    except (UserError, CitybuildersError) as exc:
        typer.echo(_("error: {message}", message=localize(exc, current_language())), err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo(_("interrupted"), err=True)
        return 130
    except SystemExit as exc:  # typer/click exits (e.g. --help)
        return int(exc.code or 0) if isinstance(exc.code, int) else 0
    except Exception as exc:  # click usage errors
        if isinstance(exc, _click_classes("ClickException")):
            message = click_message(" ".join(str(exc.format_message()).split()),
                                    current_language())
            typer.echo(_("error: {message} (see 'citybuilders --help')", message=message),
                       err=True)
            return 2
        if isinstance(exc, _click_classes("Abort")):
            return 1
        if os.environ.get("CITYBUILDERS_DEBUG"):
            raise
        # a bug, not a user error: still one line for the user, the details on request
        where = f" in {exc.__traceback__.tb_frame.f_code.co_filename}" if exc.__traceback__ else ""
        typer.echo(
            _("error: internal error ({kind}: {detail}){where}; please report it "
              "(set CITYBUILDERS_DEBUG=1 to see the traceback)", kind=type(exc).__name__,
              detail=exc, where=where),
            err=True,
        )
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
