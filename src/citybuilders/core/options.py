"""Declared, validated game options (setup choices and named rules options).

Every game declares its options as a tuple of :class:`Option`. ``resolve_options`` turns the
user's keyword arguments into a complete, validated dict; an unknown option or a bad value raises
:class:`~citybuilders.core.errors.OptionError` naming the option and listing what is allowed.
``docs/rules-options.md`` is generated from these declarations (``citybuilders options --markdown``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .errors import OptionError, short
from .i18n import N_

__all__ = ["Option", "resolve_options", "parse_option_text", "options_markdown"]


class _Msgid(str):
    """A msgid whose ``format`` keeps it translatable (an ``N_`` message): passed as
    :meth:`Option.allowed_text`'s ``_``, the description of the allowed values in an error
    is shown in the reader's language wherever the error is localized."""

    def format(self, *args: Any, **params: Any) -> str:  # type: ignore[override]
        return N_(str(self), **params)


@dataclass(frozen=True)
class Option:
    """One option of a game.

    Attributes:
        name: identifier used as keyword argument (``load_game(name, **{option: value})``).
        default: value used when the option is not given (must itself be valid).
        doc: what the option does (one or two sentences; shown in CLI help and docs).
        type: one of ``bool``, ``int``, ``str``, ``list`` (a list of str/int values).
        choices: allowed values (for ``list``: allowed elements); ``None`` = any value of ``type``.
        minimum / maximum: bounds for ``int`` options (inclusive).
        validate: extra check ``f(value) -> value`` raising ``ValueError`` with a message.
        source: the rule source (rulebook section or digest entry) for rules options.
        kind: ``"setup"`` (board, cards, sheet...) or ``"rule"`` (a disputed/variant rule).
        alternatives: for rule options, a short description of each non-default value.
        label: a short human name shown in the lobby, ``citybuilders options`` and the docs
            ("Terrain card with no free hex"); empty = the name with spaces.
        question: the question the option answers, in plain words ("What happens when ...?").
        expansion: the expansion this option belongs to (``"crossroads"``): it matters only
            when that expansion is in the game's ``expansions`` option, and the lobby shows it
            only then; empty = the base game.
        note: for the command line and the Python API only (how a file is passed, the command
            that lists the values): ``citybuilders options`` and docs/rules-options.md show it
            after ``doc``; the lobby, where those do not apply, does not.
    """

    name: str
    default: Any
    doc: str
    type: type = str
    choices: Sequence[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None
    validate: Callable[[Any], Any] | None = None
    source: str = ""
    kind: str = "rule"
    alternatives: Mapping[str, str] = field(default_factory=dict)
    label: str = ""
    question: str = ""
    expansion: str = ""
    note: str = ""

    @property
    def title(self) -> str:
        """``label``, or the name with its underscores as spaces, capitalised."""
        return self.label or self.name.replace("_", " ").capitalize()

    def value_label(self, value: Any) -> str:
        """A choice value in words: ``"no_redraw"`` -> ``"No redraw"``, True -> ``"Yes"`` (also
        the ``"true"``/``"false"`` keys of a yes/no option's ``alternatives``)."""
        if self.type is bool and isinstance(value, str) and value in ("true", "false"):
            value = value == "true"
        if isinstance(value, bool):
            return "Yes" if value else "No"
        text = str(value).replace("_", " ")
        return text[:1].upper() + text[1:]

    def allowed_text(self, _: Callable[[str], str] = str) -> str:
        """Human-readable description of the allowed values; ``_`` translates its fixed words
        (an English msgid -> the reader's text, e.g. ``gettext_for("zh_Hant")``; default:
        English). The values themselves are what is typed, the same in every language."""
        if self.choices is not None:
            vals = ", ".join(repr(c) if not isinstance(c, str) else c for c in self.choices)
            if self.type is list:
                return _("a list of: {values}").format(values=vals)
            return vals
        if self.type is bool:
            return _("true or false")
        if self.type is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            if lo and hi:
                return _("an integer from {lo} to {hi}").format(lo=lo, hi=hi)
            if lo:
                return _("an integer from {lo}").format(lo=lo)
            if hi:
                return _("an integer to {hi}").format(hi=hi)
            return _("an integer")
        if self.type is list:
            return _("a list")
        return _("a string")

    def texts(self) -> list[str]:
        """The option's player-facing English texts, each a msgid of the interface catalog
        (``scripts/i18n.py`` collects them from every registered game): the title, the
        question, the doc, the note, each alternative's explanation and the words of each
        non-numeric choice (:meth:`value_label`). ``source`` is a bibliographic reference, not in
        the list."""
        out = [self.title, self.question, self.doc, self.note, *self.alternatives.values()]
        if self.choices is not None:
            out += [self.value_label(c) for c in self.choices if not isinstance(c, int)]
        out += [self.value_label(k) for k in self.alternatives]
        return [t for t in out if t]

    def check(self, value: Any, game: str = "") -> Any:
        """Return the normalised value or raise OptionError naming the option."""
        where = N_(" of {game}", game=game) if game else ""
        bad = OptionError(N_("option '{name}'{where}: bad value {short}; allowed: {allowed}",
                             name=self.name, where=where, short=short(value),
                             allowed=self.allowed_text(_Msgid)))
        if self.type is bool:
            if not isinstance(value, bool):
                raise bad
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad
            if self.minimum is not None and value < self.minimum:
                raise bad
            if self.maximum is not None and value > self.maximum:
                raise bad
        elif self.type is list:
            if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
                raise bad
            value = list(value)
            if self.choices is not None:
                for i, v in enumerate(value):
                    if v not in self.choices:
                        raise OptionError(
                            N_("option '{name}'{where}: unknown element {v}; allowed: "
                               "{allowed_text}",
                               name=self.name, where=where, v=short(v),
                               allowed_text=self.allowed_text(_Msgid))
                        )
                    if v in value[:i]:
                        raise OptionError(N_("option '{name}'{where}: {v} is given twice; each "
                                             "element at most once",
                                             name=self.name, where=where, v=short(v)))
        elif self.type is str:
            if not isinstance(value, str):
                raise bad
        if self.type is not list and self.choices is not None and value not in self.choices:
            raise bad
        if self.validate is not None:
            try:
                value = self.validate(value)
            except (ValueError, TypeError) as exc:
                raise OptionError(N_("option '{name}'{where}: {exc}",
                                     name=self.name, where=where, exc=exc)) from None
        return value


def resolve_options(
    specs: Iterable[Option], given: Mapping[str, Any], game: str = ""
) -> dict[str, Any]:
    """Validate ``given`` against ``specs`` and fill in defaults.

    Returns a new dict with one entry per declared option.
    Raises OptionError for an unknown option (listing the known ones) or a bad value.
    """
    specs = list(specs)
    by_name = {o.name: o for o in specs}
    for key in given:
        if key not in by_name:
            allowed = ", ".join(sorted(by_name)) or "(none)"
            where = N_(" for {game}", game=game) if game else ""
            raise OptionError(N_("unknown option '{key}'{where}; allowed: {allowed}",
                                 key=key, where=where, allowed=allowed))
    out: dict[str, Any] = {}
    for o in specs:
        value = given[o.name] if o.name in given else o.default
        if value is None and o.default is None:
            out[o.name] = None
            continue
        out[o.name] = o.check(value, game)
    return out


def parse_option_text(spec: Option, text: str) -> Any:
    """Parse a command-line value (``name=value``) into the option's type.

    Lists are comma-separated; list elements and ints are converted when the option's
    choices are ints. Raises OptionError on a value that does not parse.
    """
    text = text.strip()
    if spec.type is bool:
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise OptionError(N_("option '{name}': expected true or false, got {text}",
                             name=spec.name, text=short(text)))
    if spec.type is int:
        try:
            return int(text)
        except ValueError:
            raise OptionError(N_("option '{name}': expected an integer, got {text}",
                                 name=spec.name, text=short(text))) from None
    if spec.type is list:
        items = [t.strip() for t in text.split(",") if t.strip()]
        conv: list[Any] = []
        for t in items:
            if t.lstrip("-").isdigit() and (
                spec.choices is None or any(isinstance(c, int) for c in spec.choices)
            ):
                conv.append(int(t))
            else:
                conv.append(t)
        return conv
    if text.lower() in ("none", "null") and spec.default is None:
        return None
    return text


def options_markdown(game_name: str, title: str, specs: Iterable[Option]) -> str:
    """Markdown section documenting a game's options (used to build docs/rules-options.md):
    a "Setup" table and a "Rule variants" table, each row with the option's label, the
    question it answers, its name, default, allowed values, effect and source; options of an
    expansion say so ("Crossroads only")."""
    lines = [f"## {title} (`{game_name}`)", ""]
    specs = list(specs)

    def cell(s: Any) -> str:
        return str(s).replace("|", "\\|").replace("\n", " ")

    for kind, heading in (("setup", "Setup"), ("rule", "Rule variants")):
        group = [o for o in specs if o.kind == kind]
        if not group:
            continue
        lines += [f"### {heading}", ""]
        lines += ["| option | question | name = default | allowed | effect | source |",
                  "|---|---|---|---|---|---|"]
        for o in group:
            effect = o.doc + (" " + o.note if o.note else "")
            if o.alternatives:
                effect += " " + " ".join(f"`{k}`: {v}" for k, v in o.alternatives.items())
            label = f"**{o.title}**" + (f" ({o.expansion.capitalize()} only)"
                                        if o.expansion else "")
            lines.append(
                f"| {cell(label)} | {cell(o.question or '—')} | `{o.name}` = `{o.default!r}` | "
                f"{cell(o.allowed_text())} | {cell(effect)} | {cell(o.source or '—')} |"
            )
        lines.append("")
    return "\n".join(lines)
