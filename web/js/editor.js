// The editor: CodeMirror 6, coloured by the language server's own semantic tokens (no keyword
// list here: what a word is comes from the parsed file), each diagnostic drawn under its line,
// hover and completion asked of the engine worker.
import { EditorState, StateEffect, StateField, RangeSetBuilder } from '@codemirror/state';
import {
  EditorView, Decoration, WidgetType, keymap, lineNumbers, drawSelection,
  highlightActiveLine, highlightActiveLineGutter, hoverTooltip,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';

// A place from the engine (0-based line, UTF-16 column) as an offset of the document.
export function offsetOf(doc, at) {
  const n = Math.min(Math.max(at.line + 1, 1), doc.lines);
  const line = doc.line(n);
  if (at.line + 1 > doc.lines) return doc.length;
  return Math.min(line.from + at.character, line.to);
}

const setTokens = StateEffect.define();
const tokenField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setTokens)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

class Message extends WidgetType {
  constructor(diag, onFix) {
    super();
    this.diag = diag;
    this.onFix = onFix;
  }
  eq(other) {
    return other.diag === this.diag;
  }
  toDOM() {
    const div = document.createElement('div');
    div.className = `cm-under cm-under-${this.diag.severity}`;
    const text = document.createElement('span');
    text.textContent = `${this.diag.severity}${this.diag.code ? `[${this.diag.code}]` : ''}: ${this.diag.message}`;
    div.append(text);
    if (this.diag.fix) {
      const b = document.createElement('button');
      b.textContent = 'fix';
      b.className = 'cm-fix';
      b.onclick = () => this.onFix(this.diag.fix);
      div.append(' ', b);
    }
    return div;
  }
  ignoreEvent() {
    return true;
  }
}

const setDiags = StateEffect.define();
const diagField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setDiags)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function markdown(text) {
  const esc = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return esc
    .replace(/`([^`]*)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]*)\*\*/g, '<b>$1</b>')
    .replace(/(^|[^\\])\*([^*]+)\*/g, '$1<i>$2</i>')
    .replaceAll('\\*', '*')
    .replace(/\n/g, '<br>');
}

// `ask(op, args)` is the engine worker's request; `onChange(text)` is called on every edit.
export function createEditor(parent, text, ask, onChange) {
  const position = (state, pos) => {
    const line = state.doc.lineAt(pos);
    return { line: line.number - 1, character: pos - line.from };
  };
  const hover = hoverTooltip(async (view, pos) => {
    const at = position(view.state, pos);
    let h;
    try {
      h = await ask('hover', at);
    } catch {
      return null;
    }
    if (!h) return null;
    const from = h.from ? offsetOf(view.state.doc, h.from) : pos;
    const to = h.to ? offsetOf(view.state.doc, h.to) : pos;
    return {
      pos: from,
      end: to,
      create() {
        const dom = document.createElement('div');
        dom.className = 'cm-hover';
        dom.setAttribute('data-test', 'hover');
        dom.innerHTML = markdown(h.markdown);
        return { dom };
      },
    };
  });
  // Asked as the user types (a space, a colon, a letter): the engine answers about the text
  // as typed, which it is given with the question (the check of each change waits for a pause
  // in the typing).
  const complete = async (context) => {
    const at = position(context.state, context.pos);
    let items;
    try {
      items = await ask('complete', { ...at, text: context.state.doc.toString() });
    } catch {
      return null;
    }
    if (context.aborted) return null;
    if (!items || items.length === 0) return null;
    const doc = context.state.doc;
    const from = Math.min(...items.map((i) => offsetOf(doc, i.from)));
    return {
      from,
      options: items.map((i) => ({
        label: i.label,
        detail: i.detail ?? undefined,
        apply: (view) => {
          view.dispatch({
            changes: { from: offsetOf(view.state.doc, i.from), to: offsetOf(view.state.doc, i.to), insert: i.text },
          });
        },
      })),
    };
  };
  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    keymap.of([...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
    autocompletion({ override: [complete], activateOnTyping: true }),
    hover,
    tokenField,
    diagField,
    EditorView.contentAttributes.of({ 'data-test': 'editor', spellcheck: 'false', 'aria-label': 'the ruleset' }),
    EditorView.lineWrapping,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange(u.state.doc.toString());
    }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: text, extensions }) });
  view.ninetyExtensions = extensions;
  return view;
}

// Opens another text, with an undo history of its own (another piece of work).
export function openText(view, text) {
  view.setState(EditorState.create({ doc: text, extensions: view.ninetyExtensions }));
}

// Replaces the whole text (an example, a shared link).
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

// Colours from the engine's tokens, for the text they were computed on.
export function showTokens(view, tokens) {
  const doc = view.state.doc;
  const b = new RangeSetBuilder();
  const marks = tokens
    .map(([line, start, length, kind]) => {
      const from = offsetOf(doc, { line, character: start });
      return [from, Math.min(from + length, doc.length), kind];
    })
    .filter(([from, to]) => to > from)
    .sort((a, b2) => a[0] - b2[0] || a[1] - b2[1]);
  for (const [from, to, kind] of marks) b.add(from, to, Decoration.mark({ class: `tok-${kind}` }));
  view.dispatch({ effects: setTokens.of(b.finish()) });
}

// Each diagnostic underlined where it is and said under its line.
export function showDiagnostics(view, diagnostics) {
  const doc = view.state.doc;
  const onFix = (fix) => {
    view.dispatch({
      changes: { from: offsetOf(view.state.doc, fix.from), to: offsetOf(view.state.doc, fix.to), insert: fix.text },
    });
  };
  const ranges = [];
  for (const d of diagnostics) {
    const from = offsetOf(doc, d.from);
    const to = offsetOf(doc, d.to);
    if (to > from) ranges.push(Decoration.mark({ class: `cm-diag-${d.severity}` }).range(from, to));
    const end = doc.line(Math.min(d.from.line + 1, doc.lines)).to;
    ranges.push(Decoration.widget({ widget: new Message(d, onFix), block: true, side: 1 }).range(end));
  }
  // The messages drawn under their lines move the lines below them: the line being typed
  // (often the one after a mistake, at the end of the file) is kept in view.
  const effects = [setDiags.of(Decoration.set(ranges, true))];
  if (view.hasFocus) effects.push(EditorView.scrollIntoView(view.state.selection.main.head, { y: 'nearest', yMargin: 24 }));
  view.dispatch({ effects });
}
