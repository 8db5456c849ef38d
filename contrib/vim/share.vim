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
