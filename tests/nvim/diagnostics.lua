-- Opens a ruleset in headless Neovim with its built-in LSP client attached to `ninety lsp`,
-- waits for the diagnostics, and writes them to a file, a line each:
-- `LINE:COL-END_LINE:END_COL CODE MESSAGE` (0-based; columns in bytes, as Neovim keeps them).
-- Run by tests/lsp.rs as `nvim --headless -u NONE -i NONE -n -c 'luafile diagnostics.lua'`,
-- with NINETY_BIN, NINETY_FILE and NINETY_OUT in the environment.
local bin = os.getenv('NINETY_BIN')
local file = os.getenv('NINETY_FILE')
local out = os.getenv('NINETY_OUT')

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = {
  name = 'ninety',
  cmd = { bin, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
}
if vim.lsp.start then
  -- Neovim 0.8 and later.
  vim.lsp.start(config)
else
  -- Neovim 0.7 (Debian 12's package).
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, id)
end

local found = vim.wait(20000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)

local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  local message = (d.message:gsub('\n', ' | '))
  table.insert(lines, string.format('%d:%d-%d:%d %s %s', d.lnum, d.col, d.end_lnum, d.end_col, code, message))
end
if not found then
  table.insert(lines, 'no diagnostics within 20 s')
end
vim.fn.writefile(lines, out)
vim.cmd('qall!')
