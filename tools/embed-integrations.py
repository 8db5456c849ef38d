#!/usr/bin/env python3
"""Writes Sources/ShareCLI/Integrations.swift from the files under contrib/
that `share --integration NAME` prints (IntegrationTests fails when the two
differ: run this after changing one of them)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# name, file under contrib/, Swift name; vim and nvim share one plugin.
FILES = [("ranger", "ranger/rc.conf", "ranger"), ("nnn", "nnn/share", "nnn"), ("lf", "lf/lfrc", "lf"),
         ("vifm", "vifm/vifmrc", "vifm"), ("vim", "vim/share.vim", "vim"), ("tmux", "tmux/share.tmux.conf", "tmux"),
         ("mailto", "applications/share-mail.desktop", "mailDesktopEntry")]

out = ['''import ShareCore

/// The integrations `--integration NAME` prints: the same bytes as the
/// files under `contrib/` that `make install` installs (a test compares
/// each with its file, so neither can change alone). Written by
/// `tools/embed-integrations.py`.
public enum Integrations {
    /// The names `--integration` takes, in the order help lists them.
    public static let names = ["ranger", "nnn", "lf", "vifm", "vim", "nvim", "tmux", "mailto"]

    /// The file under `contrib/` each name prints (Vim and Neovim share one plugin).
    public static let files: [String: String] = [
''']
for name, path, _ in FILES:
    out.append(f'        "{name}": "{path}",\n')
    if name == "vim":
        out.append('        "nvim": "vim/share.vim",\n')
out.append('''    ]

    /// The text of `name`'s file.
    public static func text(_ name: String) -> String? {
        switch name {
''')
for name, _, ident in FILES:
    key = '"vim", "nvim"' if name == "vim" else f'"{name}"'
    out.append(f'        case {key}: {ident}\n')
out.append('''        default: nil
        }
    }
''')
for name, path, ident in FILES:
    with open(os.path.join(ROOT, "contrib", path), encoding="utf-8") as f:
        text = f.read()
    assert text.endswith("\n") and '"""#' not in text and "\\#" not in text, path
    out.append(f'\n    /// `contrib/{path}`.\n    static let {ident} = #"""\n')
    for line in text[:-1].split("\n"):
        out.append(("        " + line if line else "") + "\n")
    out.append('        """# + "\\n"\n')
out.append("}\n")
with open(os.path.join(ROOT, "Sources/ShareCLI/Integrations.swift"), "w", encoding="utf-8") as f:
    f.write("".join(out))
