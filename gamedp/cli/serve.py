"""``gamedp serve [GAME] [POSITION]``: the web board, on this machine only unless told otherwise."""

from __future__ import annotations

import socket

import click

from gamedp.cli.arguments import (NumbersCommand, board_spec, depth_option, joined, memory_option, position_argument,
                                  saved_option, variant_option)
from gamedp.errors import GamedpError


@click.command(cls=NumbersCommand)
@click.argument("game", required=False)
@position_argument
@variant_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default lets only this machine in).")
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port to listen on; 0 (the default) picks a free one.")
@click.option("--open", "open_browser", is_flag=True, help="Open the board in a web browser.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=20.0, show_default=True,
              help="Seconds one API request for a record may spend solving before it is stopped with a message "
                   "(the page's own searches go on until it leaves them).")
@saved_option
@depth_option
@memory_option
def serve(game: str | None, position: tuple[str, ...], variant: tuple[str, ...], host: str, port: int,
          open_browser: bool, time_limit: float, db: str | None, depth: int | None, memory: int | None) -> None:
    """Serve a web board: pick a game, play it against the perfect opponent or a friend, every move coloured
    by its value as soon as it is proved (the board and its moves at once), with a value history chart; an HTTP
    API under /api/ answers in `analyze --json`'s shape.

    Every built-in game is offered; GAME (a built-in name, module:attribute or path/to/file.py[:attribute])
    is added and shown first, from POSITION (in its notation) if given. A game's saved solve (`gamedp solve`)
    answers the positions it holds; --db and --depth are GAME's, as `analyze` takes them. Stop with Ctrl-C.
    """
    from gamedp.web.app import builtin_games, create_app
    from gamedp.web.guard import Server, config

    options = {"db": db, "depth": depth, "memory": memory}
    if game is None and variant:
        raise GamedpError("-V gives the parameters of the game named on the command line; name it: e.g. "
                          "gamedp serve connect4 -V width=5 -V height=4")
    game = None if game is None else board_spec(game, variant)
    start = joined(position)
    if game is None and (db is not None or depth is not None):
        given = " and ".join(f"--{k}" for k, v in options.items() if v is not None)
        raise GamedpError(f"{given} {'are' if ' and ' in given else 'is'} for the game named on the command line; "
                          "name it: e.g. gamedp serve connect4 --memory 2G")
    if game is not None:
        _check_game(game, start, options)
    games = ([game] if game else []) + builtin_games()
    # GAME's worker opens its save again: what was wrong with it has been said once already, here
    app = create_app(games, start=(game or games[0], start), time_limit=time_limit,
                     options={game: {**options, "warn": False}} if game else None)
    listener = listen(host, port)
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    url = f"http://{shown}:{bound_port}/"
    click.echo(f"gamedp board at {url}  (Ctrl-C to stop)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    Server(config(app, timeout_graceful_shutdown=2)).run(sockets=[listener])


def _check_game(game: str, position: str | None, options: dict) -> None:
    """Load GAME (with its saved solve, as its worker will) and read POSITION here, so that a mistake is one line
    at start-up, not an error page."""
    from gamedp.analysis import load_analyst

    analyst = load_analyst(game, "serve", **options)
    try:
        if position is not None:
            analyst.read_position(position)
    finally:
        if analyst.saved is not None:
            analyst.saved.close()


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port), so the URL printed is the one served."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise GamedpError(f"--host {host!r} is not an address this machine can listen on: {e}") from None
    family, kind, proto, _, address = infos[0]
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as e:
        listener.close()
        raise GamedpError(f"cannot listen on {host}:{port}: {e.strerror}; pick another --port (0 finds a free "
                          "one)") from None
    listener.listen(128)
    return listener
