-- ninety in Neovim (0.7 and later): `.rules` files get the filetype `ninety`, the language
-- server `ninety lsp`, its colours, and keys for hover (K), definition (CTRL-]), the outline
-- (gO), completion (CTRL-X CTRL-O), renaming (grn) and code actions (gra).
-- Source this file from your init.lua (`dofile('/path/to/ninety/editors/nvim/init.lua')`)
-- or copy it in. docs/editors.md explains it; tests/nvim.rs runs it.
local cmd = { 'ninety', 'lsp' }

-- Sourced from the repository, this folder also gives syntax/ninety.vim: a few colours
-- (comments, quoted text, numbers, options, cards) before the server answers.
local here = debug.getinfo(1, 'S').source:match('^@(.*)[/\\]init%.lua$')
if here and vim.fn.filereadable(here .. '/syntax/ninety.vim') == 1 then
  vim.opt.runtimepath:append(here)
end

-- Filetype: Neovim 0.7 calls `*.rules` `hog` (and reads vim.filetype.add only with
-- g:do_filetype_lua), so an autocmd says `ninety` first; 0.8 and later read the table too.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { rules = 'ninety' } })
end
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = '*.rules',
  callback = function(args)
    if vim.bo[args.buf].filetype ~= 'ninety' then
      vim.bo[args.buf].filetype = 'ninety'
    end
  end,
})

-- Colours before Neovim 0.9 (which reads semantic tokens itself): the server's tokens,
-- asked for after each change and drawn as highlights.
local groups = {
  keyword = 'Keyword', number = 'Number', enumMember = 'Constant', variable = 'Identifier',
  ['function'] = 'Function', string = 'String', comment = 'Comment', namespace = 'Include',
}
local marks = vim.api.nvim_create_namespace('ninety_tokens')
local function paint(client, buf)
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
  client.request('textDocument/semanticTokens/full', params, function(err, result)
    if err or not result or not vim.api.nvim_buf_is_valid(buf)
        or vim.api.nvim_buf_get_changedtick(buf) ~= tick then
      return
    end
    local types = client.server_capabilities.semanticTokensProvider.legend.tokenTypes
    local data, line, col = result.data, 0, 0
    vim.api.nvim_buf_clear_namespace(buf, marks, 0, -1)
    for i = 1, #data, 5 do
      col = (data[i] == 0 and col or 0) + data[i + 1]
      line = line + data[i]
      local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ''
      local ok1, from = pcall(vim.str_byteindex, text, col, true)
      local ok2, to = pcall(vim.str_byteindex, text, col + data[i + 2], true)
      local group = groups[types[data[i + 3] + 1]]
      if ok1 and ok2 and group then
        vim.api.nvim_buf_add_highlight(buf, marks, group, line, from, to)
      end
    end
  end, buf)
end

local function on_attach(client, buf)
  vim.bo[buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  vim.bo[buf].tagfunc = 'v:lua.vim.lsp.tagfunc'
  local function key(lhs, rhs, what)
    vim.keymap.set('n', lhs, rhs, { buffer = buf, desc = 'ninety: ' .. what })
  end
  key('K', vim.lsp.buf.hover, 'hover')
  key('gO', vim.lsp.buf.document_symbol, 'outline')
  key('grn', vim.lsp.buf.rename, 'rename an option')
  key('gra', vim.lsp.buf.code_action, 'quick fixes, run a scenario')
  vim.api.nvim_buf_create_user_command(buf, 'NinetyFormat', function()
    (vim.lsp.buf.format or vim.lsp.buf.formatting)()
  end, { desc = 'ninety: canonical spacing' })
  vim.api.nvim_buf_create_user_command(buf, 'NinetyRun', function()
    vim.lsp.codelens.run()
  end, { desc = 'ninety: run the scenario under the cursor' })
  local events = { 'BufEnter', 'InsertLeave', 'BufWritePost' }
  vim.api.nvim_create_autocmd(events, { buffer = buf, callback = function()
    vim.lsp.codelens.refresh()
  end })
  vim.lsp.codelens.refresh()
  if vim.fn.has('nvim-0.9') == 0 then
    local pending = 0
    vim.api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, { buffer = buf, callback = function()
      pending = pending + 1
      local mine = pending
      vim.defer_fn(function()
        if mine == pending then paint(client, buf) end
      end, 300)
    end })
    paint(client, buf)
  end
end

if vim.fn.has('nvim-0.9') == 1 then
  -- Option names: `variable` is plain text in many colour schemes.
  local function link()
    vim.api.nvim_set_hl(0, '@lsp.type.variable.ninety', { link = 'Identifier', default = true })
  end
  link()
  vim.api.nvim_create_autocmd('ColorScheme', { callback = link })
end

local client_id -- Neovim 0.7: one server for every `.rules` buffer
local warned = false
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'ninety',
  callback = function(args)
    vim.bo[args.buf].commentstring = '# %s'
    if vim.fn.executable(cmd[1]) ~= 1 then
      if not warned then
        warned = true
        vim.notify('ninety: `' .. cmd[1] .. '` is not on the PATH, so .rules files get no '
          .. 'language server: install it (`cargo install --locked --path .` in the repository)',
          vim.log.levels.WARN)
      end
      return
    end
    local config = {
      name = 'ninety',
      cmd = cmd,
      root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h'),
      on_attach = on_attach,
    }
    if vim.lsp.start then
      vim.lsp.start(config) -- 0.8 and later: one server per folder, shared
    else
      if not (client_id and vim.lsp.get_client_by_id(client_id)) then
        client_id = vim.lsp.start_client(config)
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end
  end,
})
