// Tokenizes rulesets with the TextMate grammar of the VS Code extension, using the engine VS Code
// itself uses (vscode-textmate on vscode-oniguruma), and fails when a line is not fully
// highlighted.
//
//   node editors/vscode/test/scopes.mjs        (after `npm ci` in editors/vscode)
//
// Checked (a failure fails the run):
// - every `rulesets/*.rules` and `tests/house-rules/**/*.rules` file, and every ```rules example of `docs/language.md`,
//   `docs/guide.md` and `README.md`: every non-whitespace character of every line must be
//   inside a scope beyond the root `source.ninety`, and that scope may not be only a `meta.*`
//   one (a meta scope colours nothing);
// - a few specific expectations (a rank, an option, a comment, a scenario's `expect`, a count,
//   a moment, a value read from the table, a card an outcome moves ...).
// Information only: `tests/check-inputs/*.rules`, rulesets broken on purpose. They must
// tokenize without an error; their unhighlighted text is listed, not failed.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const extension = join(here, '..');
const root = join(extension, '..', '..');

let vsctm, oniguruma;
try {
  vsctm = require('vscode-textmate');
  oniguruma = require('vscode-oniguruma');
} catch (e) {
  console.error(`cannot load vscode-textmate / vscode-oniguruma: ${e.message}`);
  console.error('install them first: npm ci --prefix editors/vscode --no-audit --no-fund');
  process.exit(2);
}

const ROOT_SCOPE = 'source.ninety';
const grammarPath = join(extension, 'syntaxes', 'ninety.tmLanguage.json');

const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
const wasmBytes = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
const onigLib = oniguruma.loadWASM(wasmBytes).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scopeName) => {
    if (scopeName === ROOT_SCOPE) {
      return vsctm.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath);
    }
    return null; // `source.rhai` and any other embedded grammar: not installed here
  },
});
const grammar = await registry.loadGrammar(ROOT_SCOPE);
if (!grammar) {
  console.error(`cannot load the grammar ${relative(root, grammarPath)}`);
  process.exit(1);
}

/** Every line of a text with its tokens: `{ text, tokens: [{ text, scopes }] }`. */
function tokenize(text) {
  let state = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    const tokens = result.tokens.map((t) => ({
      start: t.startIndex,
      text: line.slice(t.startIndex, t.endIndex),
      scopes: t.scopes,
    }));
    return { text: line, tokens };
  });
}

/** The text of a line that no scope highlights, as a list of `{ text, why }`. */
function unhighlighted(line) {
  const out = [];
  for (const token of line.tokens) {
    if (!/\S/.test(token.text)) continue;
    const beyond = token.scopes.filter((s) => s !== ROOT_SCOPE);
    if (beyond.length === 0) {
      out.push({ text: token.text.trim(), why: 'no scope' });
    } else if (beyond.every((s) => s.startsWith('meta.'))) {
      out.push({ text: token.text.trim(), why: `only ${beyond.join(' ')}` });
    }
  }
  return out;
}

/** A line as it may be printed: control characters escaped (some inputs are binary). */
const printable = (text) =>
  text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Reports the lines of one text that are not fully highlighted. */
function audit(name, text, firstLine = 1) {
  const problems = [];
  tokenize(text).forEach((line, i) => {
    if (!line.text.trim()) return;
    const bad = unhighlighted(line);
    if (bad.length > 0) {
      const what = bad.map((b) => `${JSON.stringify(b.text)} (${b.why})`).join(', ');
      problems.push(`${name}:${firstLine + i}: not highlighted: ${what}\n    | ${printable(line.text)}`);
    }
  });
  return problems;
}

/** The ```rules examples of a markdown file, with the line each starts on. */
function examples(file) {
  const out = [];
  let current = null;
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (current === null) {
      if (line.trimStart().startsWith('```rules')) current = { line: i + 2, body: [] };
    } else if (line.trimStart().startsWith('```')) {
      out.push({ line: current.line, body: current.body.join('\n') });
      current = null;
    } else {
      current.body.push(line);
    }
  });
  return out;
}

const rulesFiles = (dir) =>
  (existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : [])
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(root, dir, f));

const failures = [];
let checked = 0;

// 1. Shipped rulesets and the manual's examples: fully highlighted.
const shipped = [...rulesFiles('rulesets'), ...rulesFiles('tests/house-rules'), ...rulesFiles('tests/house-rules/set3')];
if (shipped.length === 0) failures.push('no rulesets found in rulesets/');
for (const file of shipped) {
  failures.push(...audit(relative(root, file), readFileSync(file, 'utf8')));
  checked++;
}
for (const doc of ['docs/language.md', 'docs/guide.md', 'README.md']) {
  const path = join(root, doc);
  if (!existsSync(path)) continue;
  for (const example of examples(path)) {
    failures.push(...audit(doc, example.body, example.line));
    checked++;
  }
}

// 2. Specific expectations.
const expectations = [
  // [source, line (1-based), text on that line, occurrence (1-based), scope prefix]
  ['card A: add 1 or add 11', 1, 'A', 1, 'constant.language.rank.ninety'],
  ['card A: add 1 or add 11', 1, 'card', 1, 'keyword.other.card.ninety'],
  ['card A: add 1 or add 11', 1, 'add', 2, 'support.function.effect.ninety'],
  ['card A: add 1 or add 11', 1, 'or', 1, 'keyword.operator.logical.ninety'],
  ['card A: add 1 or add 11', 1, '11', 1, 'constant.numeric.integer.ninety'],
  ['card 2 to 8: add face value', 1, 'face value', 1, 'constant.language.face-value.ninety'],
  ['Card Jack, Queen: Add 10', 1, 'Queen', 1, 'constant.language.rank.ninety'],
  ['card 10 with 2 players: play again', 1, '10', 1, 'constant.language.rank.ninety'],
  ['card 10 with 2 players: play again', 1, '2', 1, 'constant.numeric.integer.ninety'],
  ['card 10 with 2 players: play again', 1, 'play again', 1, 'support.function.effect.ninety'],
  ['card 2: halve if the total is even and above 49, otherwise double', 1, 'if', 1, 'keyword.control.conditional.ninety'],
  ['card 2: halve if the total is even and above 49, otherwise double', 1, 'even', 1, 'keyword.operator.comparison.ninety'],
  ['card 2: halve if the total is even and above 49, otherwise double', 1, 'otherwise', 1, 'keyword.control.conditional.ninety'],
  ['card 7: run swap_digits', 1, 'swap_digits', 1, 'entity.name.function.ninety'],
  ['card A: add 1 as "low" or add 11 as "high"', 1, '"high"', 1, 'string.quoted.double.ninety'],
  ['each player starts with {chips} chips', 1, '{chips}', 1, 'variable.other.option.ninety'],
  ['each player starts with {chips} chips', 1, 'each player starts with', 1, 'keyword.other.setting.ninety'],
  ['option chips = 3 from 1 to 10', 1, 'chips', 1, 'entity.name.variable.option.ninety'],
  ['option by_hand = no', 1, 'no', 1, 'constant.language.boolean.ninety'],
  ['if not {by_hand}: players draw automatically', 1, 'if', 1, 'keyword.control.conditional.ninety'],
  ['if not {by_hand}: players draw automatically', 1, '{by_hand}', 1, 'variable.other.option.ninety'],
  ['if not {by_hand}: players draw automatically', 1, 'players draw', 1, 'keyword.other.setting.ninety'],
  ['PLAYERS 2 TO 5', 1, 'PLAYERS', 1, 'keyword.other.setting.ninety'],
  ['the total may not go above 99', 1, 'above', 1, 'keyword.operator.comparison.ninety'],
  ['# a comment, "with # inside quotes"', 1, 'with', 1, 'comment.line.number-sign.ninety'],
  ['name "Ninety # Nine"   # the title', 1, '# Nine', 1, 'string.quoted.double.ninety'],
  ['name "Ninety # Nine"   # the title', 1, '# the title', 1, 'comment.line.number-sign.ninety'],
  ['on reaching 33 or 66: each other player pays 1 to the player', 1, 'on reaching', 1, 'keyword.control.trigger.ninety'],
  ['on reaching 33 or 66: each other player pays 1 to the player', 1, 'each other player', 1, 'variable.language.subject.ninety'],
  ['on reaching 33 or 66: each other player pays 1 to the player', 1, 'pays', 1, 'keyword.other.outcome.ninety'],
  ['when a player cannot play: the player pays 1 to the bank and loses the round', 1, 'to the bank', 1, 'keyword.other.outcome.ninety'],
  ['when a player cannot play: the player pays 1 to the bank and loses the round', 1, 'loses the round', 1, 'keyword.other.outcome.ninety'],
  ['the player left of the loser leads', 1, 'leads', 1, 'keyword.other.setting.ninety'],
  ['the player left of the loser leads', 1, 'the loser', 1, 'variable.language.role.ninety'],
  [SCENARIO(), 1, 'scenario', 1, 'keyword.control.scenario.ninety'],
  [SCENARIO(), 1, 'N99-8: an Ace', 1, 'entity.name.section.scenario.ninety'],
  [SCENARIO(), 2, 'players', 1, 'keyword.other.step.ninety'],
  [SCENARIO(), 3, '10H', 1, 'constant.language.card.ninety'],
  [SCENARIO(), 4, 'AS:11', 1, 'constant.language.card.ninety'],
  [SCENARIO(), 4, '11', 1, 'constant.other.choice.ninety'],
  [SCENARIO(), 5, 'expect', 1, 'keyword.control.expect.ninety'],
  [SCENARIO(), 5, 'total', 1, 'keyword.other.expectation.ninety'],
  [SCENARIO(), 6, 'expect', 1, 'keyword.control.expect.ninety'],
  [SCENARIO(), 6, '3', 1, 'constant.numeric.integer.ninety'],
  [SCENARIO(), 7, 'end', 1, 'keyword.control.scenario.ninety'],
  [SCENARIO(), 8, 'hand', 1, 'keyword.other.setting.ninety'],
  [SCRIPT(), 1, 'script', 1, 'keyword.control.script.ninety'],
  [SCRIPT(), 2, '// 47', 1, 'comment.line.double-slash.rhai'],
  [SCRIPT(), 3, 'fn', 1, 'source.rhai'],
  [SCRIPT(), 3, 'fn', 1, 'storage.type.function.rhai'],
  [SCRIPT(), 4, 'let', 1, 'storage.type.rhai'],
  [SCRIPT(), 4, 'game.total', 1, 'source.rhai'],
  [SCRIPT(), 5, 'if', 1, 'keyword.control.rhai'],
  [SCRIPT(), 5, '#{', 1, 'source.rhai'],
  [SCRIPT(), 6, 'end', 1, 'keyword.control.script.ninety'],
  [SCRIPT(), 7, 'run', 1, 'support.function.effect.ninety'],
  ['script file "house.rhai"', 1, 'script file', 1, 'keyword.control.script.ninety'],
  // Counts the table keeps, moments, values read from the table, round ends, card moves.
  ['count points for each player, starting at 0', 1, 'count', 1, 'keyword.other.setting.ninety'],
  ['count points for each player, starting at 0', 1, 'points', 1, 'entity.name.variable.count.ninety'],
  ['count points for each player, starting at 0', 1, 'for each player', 1, 'keyword.other.setting.ninety'],
  ['count points for each player, starting at 0', 1, '0', 1, 'constant.numeric.integer.ninety'],
  ['after each card, if the run is at least 2: the player who plays next pays 1', 1, 'after each card', 1, 'keyword.control.trigger.ninety'],
  ['after each card, if the run is at least 2: the player who plays next pays 1', 1, 'if', 1, 'keyword.control.conditional.ninety'],
  ['after each card, if the run is at least 2: the player who plays next pays 1', 1, 'the run', 1, 'variable.language.table.ninety'],
  ['after each card, if the run is at least 2: the player who plays next pays 1', 1, 'at least', 1, 'keyword.operator.comparison.ninety'],
  ['after each card, if the run is at least 2: the player who plays next pays 1', 1, 'pays', 1, 'keyword.other.outcome.ninety'],
  ["when 2 players are left: each player's chips become 1", 1, 'when', 1, 'keyword.control.trigger.ninety'],
  ["when 2 players are left: each player's chips become 1", 1, '2', 1, 'constant.numeric.integer.ninety'],
  ["when 2 players are left: each player's chips become 1", 1, "each player's", 1, 'variable.language.subject.ninety'],
  ["when 2 players are left: each player's chips become 1", 1, 'become', 1, 'keyword.other.outcome.ninety'],
  ['the total may not go above 109 minus 10 times the round, but not below 59', 1, 'minus', 1, 'keyword.operator.arithmetic.ninety'],
  ['the total may not go above 109 minus 10 times the round, but not below 59', 1, 'times', 1, 'keyword.operator.arithmetic.ninety'],
  ['the total may not go above 109 minus 10 times the round, but not below 59', 1, 'the round', 1, 'variable.language.table.ninety'],
  ['the total may not go above 109 minus 10 times the round, but not below 59', 1, 'but not below', 1, 'keyword.operator.comparison.ninety'],
  ['card 9: set the total to the limit', 1, 'the limit', 1, 'variable.language.table.ninety'],
  ["when a player cannot play: the player's points go up by the total", 1, 'points', 1, 'variable.other.count.ninety'],
  ["when a player cannot play: the player's points go up by the total", 1, 'go up by', 1, 'keyword.other.outcome.ninety'],
  ["when a player cannot play: the player's points go up by the total", 1, 'the total', 1, 'variable.language.table.ninety'],
  ['the round ends after 6 cards', 1, 'the round ends', 1, 'keyword.other.setting.ninety'],
  ['the round ends after 6 cards', 1, 'cards', 1, 'keyword.other.unit.ninety'],
  ['the round ends when the cards laid this round are 20', 1, 'the cards laid this round', 1, 'variable.language.table.ninety'],
  ['the game ends when a player reaches 300 points', 1, 'points', 1, 'variable.other.count.ninety'],
  ['the winner is the player with the fewest points', 1, 'points', 1, 'variable.other.count.ninety'],
  ['the player with the fewest chips leads each round, ties to the left of the loser', 1, 'ties to the', 1, 'keyword.other.setting.ninety'],
  ['the player with the fewest chips leads each round, ties to the left of the loser', 1, 'the loser', 1, 'variable.language.role.ninety'],
  ['no option chips', 1, 'option', 1, 'keyword.other.setting.ninety'],
  ['no option chips', 1, 'chips', 1, 'variable.other.option.ninety'],
  ['card 5: add 5 and each other player draws 1', 1, 'draws', 1, 'keyword.other.outcome.ninety'],
  ['card 5: add 5 and each other player draws 1', 1, '1', 1, 'constant.numeric.integer.ninety'],
  ['card J: add 10 and swap hands with the next player', 1, 'swap hands with', 1, 'keyword.other.outcome.ninety'],
  ['card J: add 10 and swap hands with the next player', 1, 'the next player', 1, 'variable.language.subject.ninety'],
  ['card Q: the player takes a card at random from the player before', 1, 'takes a card at random', 1, 'keyword.other.outcome.ninety'],
  ['card Q: the player takes a card at random from the player before', 1, 'the player before', 1, 'variable.language.subject.ninety'],
  ['card K: add 0 and gives a card at random to the player after', 1, 'gives a card at random', 1, 'keyword.other.outcome.ninety'],
  [STEPS(), 2, 'round', 1, 'keyword.other.step.ninety'],
  [STEPS(), 3, 'count', 1, 'keyword.other.step.ninety'],
  [STEPS(), 3, 'points', 1, 'variable.other.count.ninety'],
  [STEPS(), 4, 'count', 1, 'keyword.other.expectation.ninety'],
  [STEPS(), 4, 'points', 1, 'variable.other.count.ninety'],
  [STEPS(), 5, 'holds', 1, 'keyword.other.expectation.ninety'],
  [STEPS(), 5, '4D', 1, 'constant.language.card.ninety'],
];

function SCENARIO() {
  return [
    'scenario "N99-8: an Ace as 11"',
    '  players 2',
    '  hand 0: AS 10H 8C',
    '  play AS:11',
    '  expect total 11',
    '  expect hand 0: 3',
    'end',
    'hand 3 cards',
  ].join('\n');
}

function STEPS() {
  return [
    'scenario "points"',
    '  round 3',
    '  count points: 150, 290, 40',
    '  expect count points: 150, 387, 40',
    '  expect hand 1 holds: 4D 6D 7D 8S',
    'end',
  ].join('\n');
}

function SCRIPT() {
  return [
    'script',
    '  // 47 becomes 74',
    '  fn swap_digits(game) {',
    '    let t = game.total;',
    '    if t > 9 { #{ total: t } } else { t }',
    'end',
    'card 7: run swap_digits',
  ].join('\n');
}

for (const [source, lineNo, needle, occurrence, scope] of expectations) {
  const line = tokenize(source)[lineNo - 1];
  let at = -1;
  for (let n = 0; n < occurrence; n++) at = line.text.indexOf(needle, at + 1);
  const where = `expectation ${JSON.stringify(needle)} in line ${lineNo} of ${JSON.stringify(source.split('\n')[0])}`;
  if (at < 0) {
    failures.push(`${where}: text not found`);
    continue;
  }
  const covering = line.tokens.filter(
    (t) => t.start < at + needle.length && t.start + t.text.length > at && /\S/.test(t.text),
  );
  const wrong = covering.filter((t) => !t.scopes.some((s) => s === scope || s.startsWith(scope + '.')));
  if (covering.length === 0 || wrong.length > 0) {
    const got = (wrong[0] ?? { scopes: [] }).scopes.join(' ');
    failures.push(`${where}: expected ${scope}, got ${got}`);
  }
  checked++;
}

// 3. Broken rulesets: information only.
const info = [];
for (const file of rulesFiles('tests/check-inputs')) {
  const text = readFileSync(file, 'utf8');
  try {
    info.push(...audit(relative(root, file), text));
  } catch (e) {
    failures.push(`${relative(root, file)}: tokenizing failed: ${e.stack ?? e}`);
  }
}

if (info.length > 0) {
  console.log(`info: ${info.length} line(s) of the deliberately broken tests/check-inputs/*.rules are not fully highlighted:`);
  for (const line of info) console.log(`  ${line.replace(/\n/g, '\n  ')}`);
}
if (failures.length > 0) {
  console.error(`FAILED: ${failures.length} problem(s):`);
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
console.log(`ok: ${shipped.length} rulesets, the manual's examples and the expectations (${checked} checks) fully highlighted`);
