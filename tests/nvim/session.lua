-- A session in Neovim set up as docs/editors.md says (its init.lua is the one the test
-- wrote, which sources editors/nvim/init.lua): opens a ruleset and a broken one, and writes
-- what a user would see to NINETY_OUT, a `KEY: VALUE` line each. Run by tests/nvim.rs as
-- `nvim --headless -i NONE -n -c 'luafile session.lua'`, with NINETY_GOOD, NINETY_BROKEN and
-- NINETY_OUT in the environment. Positions are 0-based lines and byte columns, as Neovim
-- keeps them.
local out = {}
local function say(key, value)
  table.insert(out, key .. ': ' .. (tostring(value):gsub('\n', ' | ')))
end

local function clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

local function finish()
  say('messages', vim.fn.execute('messages'))
  vim.fn.writefile(out, os.getenv('NINETY_OUT'))
  vim.cmd('qall!')
end

say('version', vim.version().major .. '.' .. vim.version().minor)
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('NINETY_GOOD')))
local buf = vim.api.nvim_get_current_buf()
local win = vim.api.nvim_get_current_win()
say('filetype', vim.bo[buf].filetype)
say('commentstring', vim.bo[buf].commentstring)
if os.getenv('NINETY_NO_SERVER') then
  vim.wait(500)
  say('clients', #clients(buf))
  finish()
  return
end

local attached = vim.wait(20000, function() return #clients(buf) > 0 end, 20)
say('attached', attached)
local diagnosed = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
say('diagnosed', diagnosed)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  say('diagnostic', string.format('%d:%d %s %s', d.lnum, d.col, code, d.message))
end
say('omnifunc', vim.bo[buf].omnifunc)
say('tagfunc', vim.bo[buf].tagfunc)

-- Colours: Neovim 0.9 and later draw the server's semantic tokens themselves, earlier
-- versions through init.lua's highlights. Either way, the line `extends "ninety-nine"`
-- must have its keyword coloured.
local coloured
if vim.fn.has('nvim-0.9') == 1 then
  coloured = vim.wait(10000, function()
    local at = vim.inspect_pos(buf, 0, 1)
    return #at.semantic_tokens > 0 and at.semantic_tokens[1].opts.hl_group
  end, 20)
  local at = vim.inspect_pos(buf, 0, 1)
  for _, t in ipairs(at.semantic_tokens) do say('colour 0:1', t.opts.hl_group) end
else
  local ns = vim.api.nvim_create_namespace('ninety_tokens')
  coloured = vim.wait(10000, function()
    return #vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, {}) > 0
  end, 20)
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, { 0, 0 }, { 0, 0 }, { details = true })) do
    say('colour 0:1', m[4].hl_group)
  end
end
say('coloured', coloured)
say('syntax', vim.fn.synIDattr(vim.fn.synID(1, 1, 1), 'name') .. ' ' .. (vim.b.current_syntax or ''))

-- Hover: K on the `K` of `card K: add {bonus}` (line 4) opens a float with its words.
vim.api.nvim_win_set_cursor(win, { 5, 5 })
vim.cmd('normal K')
local float
vim.wait(10000, function()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      float = w
      return true
    end
  end
  return false
end, 20)
if float then
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
  say('hover', table.concat(lines, ' '))
  vim.api.nvim_win_close(float, true)
else
  say('hover', 'no window')
end

-- Go to definition: CTRL-] on `{bonus}` goes to the line that declares it (line 2).
vim.api.nvim_set_current_win(win)
vim.api.nvim_win_set_cursor(win, { 5, 15 })
local ok, err = pcall(vim.cmd, 'normal! \029')
say('definition', ok and (vim.api.nvim_win_get_cursor(0)[1] - 1) or err)
vim.cmd('buffer ' .. buf)

-- The outline: gO lists the document's symbols (in the location list from Neovim 0.10 on,
-- the quickfix list before).
vim.api.nvim_set_current_win(win)
vim.cmd('normal gO')
local function listed()
  local l = vim.fn.getloclist(win)
  return #l > 0 and l or vim.fn.getqflist()
end
vim.wait(10000, function() return #listed() > 0 end, 20)
for _, item in ipairs(listed()) do
  say('symbol', (item.lnum - 1) .. ' ' .. item.text)
end
vim.cmd('silent! lclose')
vim.cmd('silent! cclose')
vim.api.nvim_set_current_win(win)

-- Completion, as the omnifunc asks for it, after `card 7: ` on a new last line.
local last = vim.api.nvim_buf_line_count(buf)
vim.api.nvim_buf_set_lines(buf, last, last, false, { 'card 7: ' })
vim.api.nvim_win_set_cursor(win, { last + 1, 8 })
local params = vim.lsp.util.make_position_params(0, 'utf-16')
local answers = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, 10000) or {}
local words = {}
for _, answer in pairs(answers) do
  local list = answer.result and (answer.result.items or answer.result) or {}
  for _, item in ipairs(list) do table.insert(words, item.label) end
end
say('completion', table.concat(words, ','))
vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})

-- The scenario's lens: `:NinetyRun` on its heading runs it, and says so in place.
vim.wait(5000, function() return #vim.lsp.codelens.get(buf) > 0 end, 20)
vim.api.nvim_win_set_cursor(win, { 6, 0 })
vim.cmd('NinetyRun')
vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('passes') then return true end
  end
  return false
end, 20)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  if d.message:find('passes') then say('ran', d.lnum .. ' ' .. d.message) end
end
vim.wait(5000, function()
  local lens = vim.lsp.codelens.get(buf)[1]
  return lens and lens.command and lens.command.title:find('passed') ~= nil
end, 20)
for _, l in ipairs(vim.lsp.codelens.get(buf)) do say('lens', l.command and l.command.title) end

-- `:NinetyFormat` gives a line its canonical spacing.
vim.api.nvim_buf_set_lines(buf, 4, 5, false, { 'card   K:\tadd  {bonus}' })
vim.cmd('NinetyFormat')
vim.wait(5000, function()
  return vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1] == 'card K: add {bonus}'
end, 20)
say('formatted', vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1])

-- The broken file: its diagnostics, with Neovim's byte columns after a two-unit card; one
-- server for both files.
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('NINETY_BROKEN')))
local broken = vim.api.nvim_get_current_buf()
vim.wait(20000, function() return #vim.diagnostic.get(broken) > 0 end, 20)
for _, d in ipairs(vim.diagnostic.get(broken)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  say('broken', string.format('%d:%d-%d:%d %s %s', d.lnum, d.col, d.end_lnum, d.end_col, code, d.message))
end
local ids = {}
for _, c in ipairs(clients(buf)) do ids[c.id] = true end
for _, c in ipairs(clients(broken)) do ids[c.id] = true end
say('servers', #vim.tbl_keys(ids))
finish()
