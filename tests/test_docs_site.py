"""The docs site reaches every file under docs/, and no test or bench reads outside the repository.

mkdocs itself warns about a page left out of the nav, but only when it is run without ``--quiet`` (which drops
warnings before strict mode counts them); this check holds whatever the flags, and also covers the files a page
does not name in the nav: an image must be linked from a page, a helper excluded from the site by name.
"""

from __future__ import annotations

import re

from data import ROOT

DOCS = ROOT / "docs"


def mkdocs_block(key: str) -> list[str]:
    """The indented lines under a top-level key of mkdocs.yml (the config is plain enough to read by lines)."""
    lines = (ROOT / "mkdocs.yml").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    block = []
    for line in lines[start + 1:]:
        if line and not line[0].isspace():
            break
        block.append(line)
    return block


def nav_pages() -> set[str]:
    return {m.group(1) for line in mkdocs_block("nav") if (m := re.search(r":\s*(\S+\.md)\s*$", line))}


def excluded() -> set[str]:
    return {line.strip() for line in mkdocs_block("exclude_docs") if line.strip()}


def linked_files() -> set[str]:
    """Files the pages link to or show (relative links, resolved against the linking page)."""
    found = set()
    for page in DOCS.rglob("*.md"):
        for target in re.findall(r"\]\(([^)#\s]+)", page.read_text()):
            if "://" not in target:
                found.add((page.parent / target).resolve().relative_to(DOCS.resolve()).as_posix())
    return found


def test_every_file_under_docs_is_in_the_nav_linked_or_excluded():
    pages, linked, skipped = nav_pages(), linked_files(), excluded()
    unreachable = []
    for path in sorted(DOCS.rglob("*")):
        if path.is_file():
            name = path.relative_to(DOCS).as_posix()
            if not (name in pages if name.endswith(".md") else name in linked or name in skipped):
                unreachable.append(name)
    assert not unreachable, f"not in mkdocs.yml's nav, linked from a page, or in exclude_docs: {unreachable}"
    assert pages <= {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}, "the nav names a missing page"


def test_the_nav_reader_sees_a_page_left_out():
    # The check above is only as good as its reading of mkdocs.yml: it must find the pages that are there.
    assert {"index.md", "cgt.md", "howto/judge.md", "performance.md"} <= nav_pages()
    assert "serve.png" in linked_files() and "griffe_doctests.py" in excluded()


def test_no_test_or_bench_reads_outside_the_repository():
    # A clone with nothing beside it must pass: data the tests and benches read is copied in (tests/data.py).
    outside = re.compile(r"""["']/work/|["']\.\./\w|["']shared["']\s*[/,)]""")
    offenders = []
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            inside = len(path.relative_to(ROOT).parts)  # path.parents[k] is in the repository for k < this
            for n, line in enumerate(path.read_text().splitlines(), 1):
                up = [int(k) for k in re.findall(r"parents\[(\d+)\]", line)]
                if outside.search(line) or any(k >= inside for k in up):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
