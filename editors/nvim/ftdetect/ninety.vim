" `.rules` files are ninety rulesets (Neovim 0.7 would call them `hog`).
autocmd BufRead,BufNewFile *.rules if &filetype !=# 'ninety' | setlocal filetype=ninety | endif
