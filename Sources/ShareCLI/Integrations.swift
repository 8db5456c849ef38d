import ShareCore

/// The integrations `--integration NAME` prints: the same bytes as the
/// files under `contrib/` that `make install` installs (a test compares
/// each with its file, so neither can change alone). Written by
/// `tools/embed-integrations.py`.
public enum Integrations {
    /// The names `--integration` takes, in the order help lists them.
    public static let names = ["ranger", "nnn", "lf", "vifm", "vim", "nvim", "tmux", "mailto"]

    /// The file under `contrib/` each name prints (Vim and Neovim share one plugin).
    public static let files: [String: String] = [
        "ranger": "ranger/rc.conf",
        "nnn": "nnn/share",
        "lf": "lf/lfrc",
        "vifm": "vifm/vifmrc",
        "vim": "vim/share.vim",
        "nvim": "vim/share.vim",
        "tmux": "tmux/share.tmux.conf",
        "mailto": "applications/share-mail.desktop",
    ]

    /// The text of `name`'s file.
    public static func text(_ name: String) -> String? {
        switch name {
        case "ranger": ranger
        case "nnn": nnn
        case "lf": lf
        case "vifm": vifm
        case "vim", "nvim": vim
        case "tmux": tmux
        case "mailto": mailDesktopEntry
        default: nil
        }
    }

    /// `contrib/ranger/rc.conf`.
    static let ranger = #"""
        # share from ranger: ys shares the selected files, or the file under the
        # cursor, in share's picker; ranger gives the terminal to share and takes
        # it back when share ends.
        # Add these lines to ~/.config/ranger/rc.conf (share --integration ranger).
        map ys shell share -- %s
        """# + "\n"

    /// `contrib/nnn/share`.
    static let nnn = #"""
        #!/bin/sh
        # share from nnn: shares the selected files, or the file under the cursor,
        # in share's picker; nnn gives the terminal to share and takes it back
        # when share ends.
        # Save as ~/.config/nnn/plugins/share (executable), then bind a key:
        #   export NNN_PLUG='s:share'     (;s runs it)
        # share --integration nnn prints this file.
        selection=${NNN_SEL:-${XDG_CONFIG_HOME:-$HOME/.config}/nnn/.selection}
        if [ -s "$selection" ]; then
            # The paths are NUL-separated; -o gives share the terminal as its input.
            xargs -0 -o share -- < "$selection"
        elif [ -n "$1" ]; then
            share -- "${2:-.}/$1"
        fi
        """# + "\n"

    /// `contrib/lf/lfrc`.
    static let lf = #"""
        # share from lf: S shares the selected files, or the file under the
        # cursor, in share's picker; lf gives the terminal to share and takes it
        # back when share ends.
        # Add these lines to ~/.config/lf/lfrc (share --integration lf).
        cmd share ${{
            set -f
            IFS="$(printf '\n\t')"
            share -- $fx
        }}
        map S share
        """# + "\n"

    /// `contrib/vifm/vifmrc`.
    static let vifm = #"""
        " share from vifm: S shares the selected files, or the file under the
        " cursor, in share's picker; vifm gives the terminal to share and takes
        " it back when share ends.
        " A share cancelled (exit 1) goes straight back; a failure waits for Return
        " under share's message.
        " Add these lines to ~/.config/vifm/vifmrc (share --integration vifm).
        command! share share -- %f || [ $? -eq 1 ]
        nnoremap S :share<cr>
        """# + "\n"

    /// `contrib/vim/share.vim`.
    static let vim = #"""
        " share from Vim and Neovim:
        "   :Share          shares the buffer's file in share's picker
        "   :'<,'>Share     shares the selected lines as text, with the file name
        "                   and the line numbers (notes.txt:3-7) as the subject
        " Vim hands share the screen and takes it back; Neovim, whose :! has no
        " terminal, runs share in a terminal buffer of a tab of its own, closed
        " when share ends.
        " Save as ~/.vim/plugin/share.vim or ~/.config/nvim/plugin/share.vim
        " (share --integration vim, share --integration nvim).
        if exists('g:loaded_share')
          finish
        endif
        let g:loaded_share = 1

        command! -range Share call s:Share(<range>, <line1>, <line2>)

        function! s:Share(range, first, last) abort
          let name = expand('%:p')
          if a:range == 0 && name !=# '' && filereadable(name)
            call s:Run('share -- ' . shellescape(name))
            return
          endif
          let [first, last] = a:range == 0 ? [1, line('$')] : [a:first, a:last]
          let lines = getline(first, last)
          let file = tempname()
          call writefile(lines, file)
          let subject = (name ==# '' ? '[No Name]' : expand('%:t')) . ':' . first . (last > first ? '-' . last : '')
          call s:Run('share --subject ' . shellescape(subject) . ' - < ' . shellescape(file) . '; rm -f ' . shellescape(file))
        endfunction

        function! s:Run(command) abort
          if has('nvim')
            tabnew
            let buffer = bufnr('%')
            call termopen(a:command, {'on_exit': function('s:Closed', [buffer])})
            startinsert
          else
            execute 'silent !' . escape(a:command, '!%#')
            redraw!
            " 1 is a cancelled share; above it share failed, and said why on the screen just redrawn.
            if v:shell_error > 1
              echohl ErrorMsg | echo 'share failed (exit ' . v:shell_error . ')' | echohl None
            endif
          endif
        endfunction

        function! s:Closed(buffer, job, code, event) abort
          execute 'silent! bwipeout! ' . a:buffer
        endfunction
        """# + "\n"

    /// `contrib/tmux/share.tmux.conf`.
    static let tmux = #"""
        # share from tmux: in copy mode, S shares the selection as text in share's
        # picker, drawn in a window of its own that closes when share ends (after
        # Enter when share failed, so that its message can be read).
        # Add these lines to ~/.tmux.conf (share --integration tmux).
        bind-key -T copy-mode-vi S send-keys -X copy-pipe-and-cancel "tmux load-buffer -b share - && tmux new-window -n share 'tmux save-buffer -b share - | share - || [ $? -eq 1 ] || read -r _; tmux delete-buffer -b share'"
        bind-key -T copy-mode S send-keys -X copy-pipe-and-cancel "tmux load-buffer -b share - && tmux new-window -n share 'tmux save-buffer -b share - | share - || [ $? -eq 1 ] || read -r _; tmux delete-buffer -b share'"
        """# + "\n"

    /// `contrib/applications/share-mail.desktop`.
    static let mailDesktopEntry = #"""
        [Desktop Entry]
        Type=Application
        Name=share (Mail)
        Comment=Write an email in share's compose screen
        Exec=share --activity mail %u
        Terminal=true
        NoDisplay=true
        MimeType=x-scheme-handler/mailto;
        Categories=Network;Email;
        """# + "\n"
}
