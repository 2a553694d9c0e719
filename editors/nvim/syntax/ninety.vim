" ninety rulesets: the colours that need no parsing (comments, quoted text, numbers,
" `{option}` names, cards), shown before the language server answers. The server's semantic
" tokens add the rest (keywords, ranks, names): see editors/nvim/init.lua.
if exists('b:current_syntax')
  finish
endif

syntax match ninetyNumber /\<-\?\d\+\>/
syntax match ninetyOption /{[A-Za-z][A-Za-z0-9_-]*}/
syntax match ninetyCard /\<\%(10\|[2-9AJQK]\)[CDHS]\%(:[-+]\?[A-Za-z0-9_-]\+\)\?\>/
syntax match ninetyCard /\<X[0-9]*\>/
syntax region ninetyString start=/"/ end=/"\|$/ oneline
syntax match ninetyComment /#.*$/ contains=@Spell

highlight default link ninetyNumber Number
highlight default link ninetyOption Identifier
highlight default link ninetyCard Constant
highlight default link ninetyString String
highlight default link ninetyComment Comment

let b:current_syntax = 'ninety'
