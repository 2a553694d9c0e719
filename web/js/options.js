// The ruleset's options as controls: a number field for `from A to B`, a list for `one of`, a
// yes/no box. What is set here (only the values that differ from the text's) goes with every
// game and run, as `--set NAME=VALUE` does in the terminal.

export class OptionPanel {
  constructor(host) {
    this.host = host;
    // Values chosen, by option name: kept while the text is edited, as long as they fit.
    this.chosen = new Map();
    this.list = [];
    this.shape = null;
  }

  // Shows the options of the last check that compiled (`null`: the text has errors, and the
  // controls of the last good text stay, greyed).
  show(list) {
    if (list === null) {
      this.host.classList.add('stale');
      return;
    }
    this.host.classList.remove('stale');
    const shape = JSON.stringify(list);
    if (shape === this.shape) return;
    this.shape = shape;
    this.list = list;
    for (const name of [...this.chosen.keys()]) {
      const o = list.find((x) => x.name === name);
      if (!o || !fits(o, this.chosen.get(name)) || this.chosen.get(name) === o.value) this.chosen.delete(name);
    }
    this.draw();
  }

  draw() {
    this.host.replaceChildren();
    if (this.list.length === 0) {
      const p = document.createElement('p');
      p.className = 'hint';
      p.innerHTML = 'This ruleset has no options. A line such as <code>option chips = 3 from 1 to 10</code> declares one, and <code>{chips}</code> uses it.';
      this.host.append(p);
      return;
    }
    for (const o of this.list) this.host.append(this.control(o));
    const reset = document.createElement('button');
    reset.type = 'button';
    reset.textContent = 'the text\'s values';
    reset.setAttribute('data-test', 'options-reset');
    reset.onclick = () => {
      this.chosen.clear();
      this.draw();
    };
    this.host.append(reset);
  }

  control(o) {
    const label = document.createElement('label');
    label.className = 'option';
    label.setAttribute('data-option', o.name);
    const value = this.chosen.get(o.name) ?? o.value;
    let input;
    if (o.kind === 'yesno') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = value === 'yes';
      input.onchange = () => this.set(o, input.checked ? 'yes' : 'no', label);
    } else if (o.kind === 'choice') {
      input = document.createElement('select');
      for (const c of o.choices) {
        const opt = document.createElement('option');
        opt.value = c;
        opt.textContent = c;
        input.append(opt);
      }
      input.value = value;
      input.onchange = () => this.set(o, input.value, label);
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.step = '1';
      if (o.min !== null) input.min = String(o.min);
      if (o.max !== null) input.max = String(o.max);
      input.value = value;
      input.oninput = () => this.set(o, input.value.trim(), label);
    }
    input.setAttribute('data-test', `option-${o.name}`);
    const name = document.createElement('span');
    name.className = 'option-name';
    name.textContent = o.name;
    const hint = document.createElement('span');
    hint.className = 'option-hint';
    hint.textContent = `${o.allowed}; the text says ${o.value}`;
    label.append(name, ' ', input, ' ', hint);
    label.toggleAttribute('data-changed', this.chosen.has(o.name));
    return label;
  }

  set(o, value, label) {
    if (value === o.value) this.chosen.delete(o.name);
    else this.chosen.set(o.name, value);
    label.toggleAttribute('data-changed', this.chosen.has(o.name));
    label.toggleAttribute('data-invalid', !fits(o, value));
  }

  // The values set, as `{name: value}`, or why one cannot be used.
  sets() {
    const out = {};
    for (const [name, value] of this.chosen) {
      const o = this.list.find((x) => x.name === name);
      if (!o) continue;
      if (!fits(o, value)) return { error: `the option ${name} must be ${o.allowed}, not ${value || 'empty'}` };
      out[name] = value;
    }
    return { sets: out };
  }
}

function fits(o, value) {
  if (o.kind === 'yesno') return value === 'yes' || value === 'no';
  if (o.kind === 'choice') return o.choices.includes(value);
  if (!/^-?\d+$/.test(value)) return false;
  const n = Number(value);
  return (o.min === null || n >= o.min) && (o.max === null || n <= o.max);
}
