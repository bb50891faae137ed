"""The skill's files as a tree, each with its count of findings."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from skillforge.models.findings import Finding
from skillforge.models.skill import Skill


class SkillFileTree(Tree[str]):
    """Files of the current skill. Selecting a file filters the findings to it."""

    HELP = """## Files
The files of the current skill; the number after a file is how many findings it has.
**Enter** on a file shows only its findings; **Enter** on the root shows all again.
"""
    DEFAULT_CSS = """
    SkillFileTree { height: 1fr; border: round $panel; }
    SkillFileTree:focus { border: round $accent; }
    """

    class FileChosen(Message):
        def __init__(self, path: str | None) -> None:
            super().__init__()
            self.path = path

    def __init__(self, **kwargs) -> None:
        super().__init__("skill", data=None, **kwargs)
        self.border_title = "Files"
        self.show_root = True
        self.guide_depth = 2
        self._shown: tuple | None = None  # what the tree shows now (see show_skill)

    def show_skill(self, skill: Skill | None, findings: list[Finding]) -> None:
        counts: dict[str, int] = {}
        for f in findings:
            counts[f.path or ""] = counts.get(f.path or "", 0) + 1
        # Most saves change neither the files nor their counts: rebuilding the tree then
        # only lays the screen out again and loses the author's place in it.
        shown = None if skill is None else (
            skill.display_name, tuple((f.path, f.is_dir) for f in skill.files if f.present),
            tuple(sorted(counts.items())))
        if shown is not None and shown == self._shown:
            return
        self._shown = shown
        self.clear()
        if skill is None:
            self.root.set_label("(no skill)")
            return
        self.root.set_label(Text(skill.display_name + "/", style="bold"))
        self.root.data = None
        dirs: dict[str, TreeNode[str]] = {"": self.root}
        for f in sorted(skill.files, key=lambda f: (f.path.count("/") == 0, f.path)):
            if not f.present:
                continue
            parts = f.path.split("/")
            for depth in range(1, len(parts)):
                key = "/".join(parts[:depth])
                if key not in dirs:
                    dirs[key] = dirs["/".join(parts[: depth - 1])].add(parts[depth - 1] + "/", data=key, expand=True)
            label = Text(parts[-1] + ("/" if f.is_dir else ""))
            n = counts.get(f.path, 0)
            if n:
                label.append(f"  {n}", style="bold yellow")
            dirs["/".join(parts[:-1])].add_leaf(label, data=f.path)
        self.root.expand()

    def on_tree_node_selected(self, event: Tree.NodeSelected[str]) -> None:
        event.stop()
        self.post_message(self.FileChosen(event.node.data))
