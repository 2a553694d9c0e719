// The browser side of `ninety serve` (docs/serve.md): the lobby at `/`, a table at `/t/N`,
// one WebSocket at `/ws`. Every string the server sends (ruleset names, events, errors) comes
// from strangers: it is put into the page as text (textContent, text nodes), never as HTML.
'use strict';

(() => {
  const SUITS = {
    S: { symbol: '♠', word: 'spades', red: false },
    H: { symbol: '♥', word: 'hearts', red: true },
    D: { symbol: '♦', word: 'diamonds', red: true },
    C: { symbol: '♣', word: 'clubs', red: false },
  };
  const LOG_LINES = 200;
  const DELAYS = [500, 1000, 2000];
  const RETRY_EVERY = 3000;
  const OWN = ':own';
  const NOTICE_MS = 12000;

  const S = {
    mode: null, // 'lobby' | 'table'
    table: null,
    seat: undefined, // a number, null for a spectator, undefined before the server said
    token: null,
    wantWatch: false,
    ws: null,
    connected: false,
    queue: [],
    asked: null, // the type of the last request the server has not answered yet
    opening: false,
    retries: 0,
    retryTimer: null,
    last: null, // the last `table` message
    tables: 0, // how many `table` messages came
    pending: false, // a move was sent, its table has not come
    selected: null, // the card whose choices are shown
    replay: null, // the steps, while replaying
    step: 0,
    rulesets: [],
    bots: [],
    seatChoices: [],
    noticeTimer: null,
    notice: null, // the last notice said
    gone: false, // the table is not there: stop asking
  };

  const $ = (id) => document.getElementById(id);
  const body = () => document.body;

  // An element: attributes set as attributes (never as HTML), `on...` functions as listeners,
  // children appended (strings become text nodes).
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (v === undefined || v === null || v === false) continue;
      if (typeof v === 'function') e.addEventListener(k.replace(/^on/, ''), v);
      else if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = String(v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat()) {
      if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
    }
    return e;
  }

  function setData(name, value) {
    body().dataset[name] = String(value);
  }

  function storeKey(table) {
    return `ninety-seat-${table}`;
  }

  function stored(table) {
    try {
      return localStorage.getItem(storeKey(table));
    } catch {
      return null;
    }
  }

  function store(table, token) {
    try {
      localStorage.setItem(storeKey(table), token);
    } catch {
      // A browser that keeps nothing: the seat is kept for as long as the page is open.
    }
  }

  function forget(table) {
    try {
      localStorage.removeItem(storeKey(table));
    } catch {
      // Nothing was kept.
    }
  }

  // --- Cards ------------------------------------------------------------------------------

  // `10S` is the ten of spades: rank then suit letter.
  function parseCard(text) {
    const t = String(text);
    const m = /^(.+)([SHDC])$/.exec(t);
    if (!m) return { rank: t, suit: null };
    return { rank: m[1], suit: SUITS[m[2]] };
  }

  function cardFace(text, tag = 'span', attrs = {}) {
    const { rank, suit } = parseCard(text);
    const classes = ['card'];
    if (suit?.red) classes.push('red');
    if (attrs.class) classes.push(attrs.class);
    const label = suit ? `${rank} of ${suit.word}` : String(text);
    return el(
      tag,
      { title: label, 'aria-label': label, ...attrs, class: classes.join(' '), 'data-card': text },
      el('span', { class: 'rank', 'aria-hidden': 'true', text: rank }),
      el('span', { class: 'suit', 'aria-hidden': 'true', text: suit ? suit.symbol : '' }),
    );
  }

  function cardName(text) {
    const { rank, suit } = parseCard(text);
    return suit ? `${rank}${suit.symbol}` : String(text);
  }

  // A set of seats, from a list of seats (or, leniently, a bit set).
  function seatSet(x) {
    const s = new Set();
    if (Array.isArray(x)) for (const v of x) s.add(Number(v));
    else if (typeof x === 'number') for (let i = 0; i < 31; i++) if (x & (1 << i)) s.add(i);
    return s;
  }

  function seatName(t, i) {
    const seat = t.seats?.[i];
    return seat?.name ? String(seat.name) : `Seat ${Number(i) + 1}`;
  }

  function movesOf(t) {
    return (t.moves ?? []).map((m) => (typeof m === 'string' ? { send: m, card: null, label: m } : m));
  }

  function isYourTurn(t) {
    return t.seat !== null && t.seat !== undefined && !t.over && t.waiting_on === t.seat && movesOf(t).length > 0;
  }

  // --- The connection ---------------------------------------------------------------------

  function wsUrl() {
    return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
  }

  function connect() {
    if (S.ws && (S.ws.readyState === WebSocket.CONNECTING || S.ws.readyState === WebSocket.OPEN)) return;
    clearTimeout(S.retryTimer);
    S.retryTimer = null;
    let ws;
    try {
      ws = new WebSocket(wsUrl());
    } catch (e) {
      lost(null);
      return;
    }
    S.ws = ws;
    ws.onopen = () => {
      if (ws !== S.ws) return;
      S.connected = true;
      S.retries = 0;
      setData('conn', 'open');
      if (S.mode === 'table') {
        hello();
        renderStatus();
      }
      const queued = S.queue;
      S.queue = [];
      for (const m of queued) send(m);
    };
    ws.onmessage = (ev) => {
      if (ws !== S.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg === 'object') handle(msg);
    };
    ws.onclose = () => lost(ws);
    ws.onerror = () => {
      // A close follows.
    };
  }

  function lost(ws) {
    if (ws && ws !== S.ws) return;
    S.ws = null;
    S.connected = false;
    S.pending = false;
    setData('conn', 'closed');
    if (S.mode === 'table') {
      renderStatus();
      if (S.last && !S.replay) renderBoard(S.last, true);
      if (!S.gone) scheduleReconnect();
    } else if (S.opening) {
      S.opening = false;
      S.queue = [];
      lobbyError('The connection to the server was lost before the table opened. Try again.');
      openButton(true);
    }
  }

  function scheduleReconnect() {
    if (S.retryTimer) return;
    const delay = S.retries < DELAYS.length ? DELAYS[S.retries] : RETRY_EVERY;
    S.retries += 1;
    S.retryTimer = setTimeout(() => {
      S.retryTimer = null;
      connect();
    }, delay);
  }

  function send(msg) {
    if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
      S.queue.push(msg);
      connect();
      return;
    }
    if (['open', 'join', 'back', 'watch', 'move', 'replay'].includes(msg.type)) S.asked = msg.type;
    S.ws.send(JSON.stringify(msg));
  }

  // What a table page says first on each connection: its seat back, else a look, else a seat.
  function hello() {
    if (S.token) send({ type: 'back', table: S.table, token: S.token });
    else if (S.wantWatch) send({ type: 'watch', table: S.table });
    else send({ type: 'join', table: S.table });
  }

  function handle(msg) {
    switch (msg.type) {
      case 'seated':
        onSeated(msg);
        break;
      case 'watching':
        onWatching(msg);
        break;
      case 'table':
        onTable(msg);
        break;
      case 'refused':
        onRefused(msg);
        break;
      case 'replay':
        onReplay(msg);
        break;
      case 'error':
        onError(msg);
        break;
      default:
        break;
    }
  }

  function onSeated(msg) {
    S.asked = null;
    S.table = Number(msg.table);
    S.seat = msg.seat;
    S.token = String(msg.token);
    S.wantWatch = false;
    store(S.table, S.token);
    setData('seat', S.seat);
    if (S.mode !== 'table') {
      S.opening = false;
      openButton(true);
      history.replaceState(null, '', `/t/${S.table}`);
      enterTable();
    }
    renderStatus();
  }

  function onWatching(msg) {
    S.asked = null;
    if (msg.table !== undefined) S.table = Number(msg.table);
    S.seat = null;
    S.wantWatch = true;
    setData('seat', 'watch');
    renderStatus();
  }

  function onTable(t) {
    S.last = t;
    S.pending = false;
    S.tables += 1;
    setData('tables', S.tables);
    if (t.seat === null || t.seat === undefined) {
      S.seat = null;
      setData('seat', 'watch');
    } else {
      S.seat = t.seat;
      setData('seat', t.seat);
    }
    // A notice stays in the table's messages until the next move: said once, before the
    // events it explains (a bot plays for someone: then the bot's move).
    const notice = t.notice ? String(t.notice) : null;
    if (notice && notice !== S.notice) {
      showNotice(notice);
      appendLog([notice], 'notice');
    }
    S.notice = notice;
    const events = Array.isArray(t.events) ? t.events : [];
    appendLog(events.map(eventText));
    hide($('refused'));
    if (!S.replay) renderBoard(t, true);
    renderOver(t);
    setData('over', Boolean(t.over));
    setData('yourTurn', isYourTurn(t));
    renderStatus();
    setData('ready', true);
  }

  function eventText(e) {
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof e.text === 'string') return e.text;
    return JSON.stringify(e);
  }

  function onRefused(msg) {
    const why = String(msg.why ?? 'The server refused.');
    const asked = S.asked;
    S.asked = null;
    switch (asked) {
      case 'open':
        S.opening = false;
        openButton(true);
        lobbyError(why);
        break;
      case 'back':
        // The token is not known here (any more): forget it and take a seat, if there is one.
        forget(S.table);
        S.token = null;
        send({ type: 'join', table: S.table });
        break;
      case 'join':
        // No free seat: watch.
        S.wantWatch = true;
        send({ type: 'watch', table: S.table });
        break;
      case 'watch':
        S.gone = true;
        showProblem(why);
        setData('ready', true);
        renderStatus();
        break;
      default:
        S.pending = false;
        showRefused(why, msg.moves);
        if (S.last && !S.replay) renderBoard(S.last, true);
        if (S.last) setData('yourTurn', isYourTurn(S.last));
        break;
    }
  }

  function onError(msg) {
    const why = String(msg.why ?? 'The server did not understand.');
    if (S.mode !== 'table' || S.asked === 'open') {
      S.asked = null;
      S.opening = false;
      openButton(true);
      lobbyError(why);
      return;
    }
    S.asked = null;
    S.pending = false;
    showRefused(why);
    if (S.last && !S.replay) renderBoard(S.last, true);
  }

  // --- The lobby --------------------------------------------------------------------------

  function startLobby() {
    S.mode = 'lobby';
    $('lobby').hidden = false;
    $('table-view').hidden = true;
    setData('seat', '');
    setData('over', false);
    setData('yourTurn', false);
    $('status').textContent = '';
    $('ruleset').addEventListener('change', rulesetChanged);
    $('players').addEventListener('change', () => renderSeats());
    $('source').addEventListener('input', () => {
      if ($('ruleset').value === OWN) renderPlayers();
    });
    $('file').addEventListener('change', readFile);
    $('open-form').addEventListener('submit', submit);
    fetch('/api/rulesets')
      .then((r) => {
        if (!r.ok) throw new Error(`the server answered ${r.status}`);
        return r.json();
      })
      .then((list) => {
        S.rulesets = Array.isArray(list.rulesets) ? list.rulesets : [];
        S.bots = Array.isArray(list.bots) ? list.bots.map(String) : [];
        fillRulesets();
      })
      .catch((e) => {
        fillRulesets();
        lobbyError(`The list of games could not be read (${e.message}). You can still paste a ruleset of your own.`);
      })
      .finally(() => setData('ready', true));
  }

  function fillRulesets() {
    const select = $('ruleset');
    select.replaceChildren();
    for (const r of S.rulesets) {
      const title = r.title ? String(r.title) : String(r.name);
      select.append(el('option', { value: r.name, text: `${title} (${r.name})` }));
    }
    select.append(el('option', { value: OWN, text: 'My own ruleset…' }));
    const standard = S.rulesets.find((r) => r.name === 'ninety-nine');
    select.value = standard ? standard.name : select.options[0].value;
    rulesetChanged();
  }

  function chosen() {
    return S.rulesets.find((r) => r.name === $('ruleset').value) ?? null;
  }

  function rulesetChanged() {
    const own = $('ruleset').value === OWN;
    $('own').hidden = !own;
    const r = chosen();
    $('about').textContent = r?.about ? String(r.about) : own ? 'Paste the text of a ruleset, or choose its file: it is checked as ninety check checks a file.' : '';
    const options = Array.isArray(r?.options) ? r.options : [];
    const example = options.map((o) => `${o.name}=${o.default}`).join(', ');
    $('sets').placeholder = example || (own ? 'name=value, …' : 'no options');
    $('sets-hint').textContent = example
      ? `This game's options, as they are unless set here: ${example}.`
      : own
        ? 'Options of your ruleset as name=value, separated by commas.'
        : 'This game has no options.';
    renderPlayers();
  }

  // The player counts the game takes: a shipped ruleset says; one's own ruleset's `players A
  // to B` line, or its parent's, is a guess the server checks.
  function playerRange() {
    const r = chosen();
    if (r) return [Number(r.min_players) || 2, Number(r.max_players) || Number(r.min_players) || 2];
    const text = $('source').value;
    const own = /^\s*players\s+(\d+)\s+to\s+(\d+)/m.exec(text);
    if (own) return [Number(own[1]), Math.max(Number(own[1]), Number(own[2]))];
    const parent = /^\s*extends\s+"([^"]+)"/m.exec(text);
    const p = parent && S.rulesets.find((x) => x.name === parent[1]);
    if (p) return [Number(p.min_players) || 2, Number(p.max_players) || 2];
    return [2, 10];
  }

  function renderPlayers() {
    const select = $('players');
    const [lo, hi] = playerRange();
    const was = Number(select.value) || 0;
    select.replaceChildren();
    for (let n = lo; n <= hi; n++) select.append(el('option', { value: n, text: String(n) }));
    select.value = String(Math.min(hi, Math.max(lo, was || Math.max(lo, 2))));
    renderSeats();
  }

  function renderSeats() {
    const rows = $('seat-rows');
    for (const s of rows.querySelectorAll('select')) S.seatChoices[Number(s.dataset.index)] = s.value;
    rows.replaceChildren();
    const n = Number($('players').value) || 0;
    rows.append(el('div', { class: 'seat-row' }, el('span', { class: 'seat-label', text: 'Seat 1' }), el('span', { class: 'you', text: 'you' })));
    for (let i = 1; i < n; i++) {
      const id = `seat-kind-${i}`;
      const select = el('select', { id, 'data-test': id, 'data-index': i });
      select.append(el('option', { value: 'person', text: 'a friend' }));
      for (const b of S.bots) select.append(el('option', { value: b, text: `bot: ${b}` }));
      const fallback = i === 1 || S.bots.length === 0 ? 'person' : S.bots[0];
      const choice = S.seatChoices[i] ?? fallback;
      select.value = [...select.options].some((o) => o.value === choice) ? choice : fallback;
      rows.append(el('div', { class: 'seat-row' }, el('label', { class: 'seat-label', for: id, text: `Seat ${i + 1}` }), select));
    }
  }

  async function readFile() {
    const file = $('file').files?.[0];
    if (!file) return;
    try {
      $('source').value = await file.text();
      renderPlayers();
    } catch (e) {
      lobbyError(`The file could not be read: ${e.message}`);
    }
  }

  // `chips=1, lives=2` is [["chips","1"],["lives","2"]].
  function parseSets(text) {
    const sets = [];
    for (const part of text.split(/[,;\n]+/)) {
      const p = part.trim();
      if (!p) continue;
      const at = p.indexOf('=');
      if (at <= 0) throw new Error(`An option is written name=value: "${p}" is not.`);
      sets.push([p.slice(0, at).trim(), p.slice(at + 1).trim()]);
    }
    return sets;
  }

  function lobbyError(why) {
    const box = $('lobby-error');
    box.textContent = why;
    box.hidden = !why;
  }

  function openButton(enabled) {
    const b = $('open');
    b.disabled = !enabled;
    b.textContent = enabled ? 'Open a table' : 'Opening…';
  }

  function submit(ev) {
    ev.preventDefault();
    if (S.opening) return;
    lobbyError('');
    const msg = { type: 'open' };
    if ($('ruleset').value === OWN) {
      const source = $('source').value;
      if (!source.trim()) {
        lobbyError("Paste your ruleset's text, or choose its file.");
        return;
      }
      msg.source = source;
    } else {
      msg.ruleset = $('ruleset').value;
    }
    try {
      msg.sets = parseSets($('sets').value);
    } catch (e) {
      lobbyError(e.message);
      return;
    }
    const n = Number($('players').value) || 0;
    msg.seats = ['person'];
    for (let i = 1; i < n; i++) msg.seats.push($(`seat-kind-${i}`)?.value ?? 'person');
    S.opening = true;
    openButton(false);
    send(msg);
  }

  // --- The table --------------------------------------------------------------------------

  function startTable(table) {
    S.table = table;
    const hash = location.hash.replace(/^#/, '');
    const query = new URLSearchParams(location.search);
    if (hash) {
      S.token = decodeURIComponent(hash);
      store(table, S.token);
      history.replaceState(null, '', location.pathname + location.search);
    } else {
      S.token = stored(table);
    }
    S.wantWatch = !S.token && query.has('watch');
    enterTable();
    connect();
  }

  function enterTable() {
    // Ready again once the table's first message is drawn.
    setData('ready', false);
    S.mode = 'table';
    $('lobby').hidden = true;
    $('table-view').hidden = false;
    document.title = `Table ${S.table}: Ninety`;
    const url = `${location.origin}/t/${S.table}`;
    const invite = $('invite');
    invite.textContent = url;
    invite.href = url;
    setData('over', false);
    setData('yourTurn', false);
    renderStatus();
  }

  function copyInvite() {
    const url = $('invite').textContent;
    const done = () => {
      $('copy').textContent = 'Copied';
      setTimeout(() => {
        $('copy').textContent = 'Copy';
      }, 1500);
    };
    const fallback = () => {
      const range = document.createRange();
      range.selectNodeContents($('invite'));
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try {
        if (document.execCommand('copy')) done();
      } catch {
        // Selected: the person copies it.
      }
    };
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(url).then(done, fallback);
    else fallback();
  }

  function hide(e) {
    e.hidden = true;
  }

  function showNotice(text) {
    const n = $('notice');
    n.textContent = text;
    n.hidden = false;
    clearTimeout(S.noticeTimer);
    S.noticeTimer = setTimeout(() => hide(n), NOTICE_MS);
  }

  function showRefused(why, moves) {
    const r = $('refused');
    r.replaceChildren(el('span', { text: why }));
    if (Array.isArray(moves) && moves.length > 0) {
      r.append(el('span', { class: 'hint', text: ` Moves now: ${moves.map((m) => (typeof m === 'string' ? m : m.send)).join(', ')}` }));
    }
    r.hidden = false;
  }

  function showProblem(why) {
    const p = $('problem');
    p.replaceChildren(el('span', { text: why }), ' ', el('a', { href: '/', text: 'Open a table of your own' }));
    p.hidden = false;
  }

  function appendLog(lines, kind) {
    if (lines.length === 0) return;
    const log = $('log');
    for (const line of lines) log.append(el('li', { class: kind, text: line }));
    while (log.childElementCount > LOG_LINES) log.firstElementChild.remove();
    const box = $('log-box');
    box.scrollTop = box.scrollHeight;
  }

  function renderStatus() {
    if (S.mode !== 'table') return;
    const status = $('status');
    const t = S.last;
    let text;
    if (S.gone) text = 'No such table';
    else if (!S.connected) text = 'Connection lost, reconnecting…';
    else if (!t) text = 'Sitting down…';
    else if (t.over) text = 'Game over';
    else if (!t.started) {
      const people = (t.seats ?? []).filter((s) => !s.bot);
      const taken = people.filter((s) => s.taken).length;
      text = `Waiting for players: ${taken} of ${people.length} seats taken`;
    } else if (t.seat === null || t.seat === undefined) text = 'Watching';
    else if (isYourTurn(t)) text = 'Your turn';
    else {
      const on = t.waiting_on ?? t.turn;
      text = on === null || on === undefined ? 'Waiting' : `Waiting for ${seatName(t, on)}`;
    }
    status.textContent = text;
    status.dataset.kind = !S.connected && !S.gone ? 'lost' : t && isYourTurn(t) ? 'turn' : '';
  }

  function renderOver(t) {
    const over = $('over');
    if (!t.over) {
      over.hidden = true;
      return;
    }
    $('outcome').textContent = t.outcome ? String(t.outcome) : 'The game is over.';
    $('replay').hidden = Boolean(S.replay);
    over.hidden = false;
  }

  // The table `t` into the board: `live` is the table now (the hand, the moves), else a step
  // of the replay, as a spectator sees it.
  function renderBoard(t, live) {
    const board = $('board');
    const seats = Array.isArray(t.seats) ? t.seats : [];
    const sizes = Array.isArray(t.hand_sizes) ? t.hand_sizes : [];
    const chips = Array.isArray(t.chips) ? t.chips : [];
    const out = seatSet(t.out);
    const winners = seatSet(t.winners);
    const on = t.over ? null : t.waiting_on ?? t.turn;
    const known = Array.isArray(t.known) ? t.known : [];

    const seatList = el('div', { class: 'seats', 'data-test': 'seats' });
    seats.forEach((s, i) => {
      const me = live && t.seat === i;
      const badges = [];
      if (me) badges.push(['you', 'you']);
      // Who is here is the live table's: a step of the replay says who played.
      if (s.bot) badges.push(['bot', `bot: ${s.bot}`]);
      else if (live && !s.taken) badges.push(['free', 'free seat']);
      else if (live && !s.here) badges.push(['away', 'away']);
      if (live && s.stand_in) badges.push(['stand-in', 'a bot plays for them']);
      if (on === i && !out.has(i)) badges.push(['to-play', 'to play']);
      if (out.has(i)) badges.push(['out', 'out']);
      if (t.over && winners.has(i)) badges.push(['winner', '★ winner']);
      const n = Number(sizes[i] ?? 0);
      const dealt = t.started !== false;
      const backs = el('span', { class: 'backs', 'aria-label': `${n} cards`, title: `${n} cards` });
      for (let k = 0; k < Math.min(n, 12); k++) backs.append(el('span', { class: 'back' }));
      if (n > 12 || n === 0) backs.append(el('span', { class: 'backs-count', text: n === 0 ? 'no cards' : `${n}` }));
      const seen = known.filter((k) => Array.isArray(k) && Number(k[0]) === i).map((k) => k[1]);
      const classes = ['seat'];
      if (me) classes.push('me');
      if (on === i) classes.push('to-play');
      if (out.has(i)) classes.push('out');
      if (t.over && winners.has(i)) classes.push('winner');
      seatList.append(
        el(
          'div',
          { class: classes.join(' '), 'data-test': 'seat', 'data-seat': i, 'data-chips': chips[i] ?? '', 'data-cards': n },
          el('div', { class: 'seat-name', text: seatName(t, i) }),
          el('div', { class: 'badges' }, badges.map(([k, text]) => el('span', { class: `badge ${k}`, 'data-badge': k, text }))),
          !dealt ? null : el(
            'div',
            { class: 'seat-line' },
            chips[i] === undefined ? null : el('span', { class: 'chips', title: 'chips', text: `● ${chips[i]}` }),
            backs,
          ),
          seen.length > 0 ? el('div', { class: 'known' }, 'seen: ', seen.map((c) => cardFace(c, 'span', { class: 'mini', 'data-test': 'known-card' }))) : null,
        ),
      );
    });

    if (t.started === false) {
      const people = seats.filter((s) => !s.bot);
      const free = people.filter((s) => !s.taken).length;
      board.replaceChildren(
        seatList,
        el(
          'div',
          { class: 'waiting', 'data-test': 'waiting' },
          el('p', { text: `The cards are dealt when every seat for a person is taken: ${free} ${free === 1 ? 'seat is' : 'seats are'} still free.` }),
          el('p', { class: 'hint', text: 'Send the invite link above to your friends.' }),
        ),
      );
      board.classList.toggle('stale', live && !S.connected);
      return;
    }

    const discard = Array.isArray(t.discard) ? t.discard : [];
    const top = discard.length > 0 ? discard[discard.length - 1] : null;
    const center = el(
      'div',
      { class: 'center' },
      el(
        'div',
        { class: 'pile' },
        top === null ? el('span', { class: 'card empty', text: '' }) : cardFace(top, 'span', { 'data-test': 'discard' }),
        el('span', { class: 'under', text: `pile: ${discard.length}` }),
      ),
      el(
        'div',
        { class: 'total-box' },
        el('span', { class: 'under', text: 'total' }),
        el('span', { class: 'total', 'data-test': 'total', text: String(t.total ?? 0) }),
      ),
      el(
        'div',
        { class: 'pile' },
        el('span', { class: 'card back-big', 'data-test': 'stock', 'aria-label': `stock: ${t.stock ?? 0} cards` }, el('span', { class: 'stock-n', text: String(t.stock ?? 0) })),
        el('span', { class: 'under', text: 'stock' }),
      ),
    );

    const facts = [];
    if (t.round !== undefined && t.round !== null) facts.push(`Round ${t.round}`);
    if (t.bank) facts.push(`Bank ${t.bank}`);
    if (t.pot) facts.push(`Pot ${t.pot}`);
    if (t.clockwise !== undefined) facts.push(t.clockwise ? 'play goes clockwise ↻' : 'play goes counter-clockwise ↺');
    const info = el('div', { class: 'info', text: `${t.ruleset ? `${t.ruleset} · ` : ''}${facts.join(' · ')}` });

    let counts = null;
    if (Array.isArray(t.counts) && t.counts.length > 0) {
      counts = el('div', { class: 'counts', 'data-test': 'counts' });
      for (const c of t.counts) {
        const values = Array.isArray(c.values) ? c.values.join(', ') : String(c.values ?? '');
        counts.append(el('div', { class: 'count' }, el('span', { class: 'count-name', text: String(c.name ?? '') }), ` ${values}`));
      }
    }

    const parts = [seatList, center, info, counts];
    if (live) parts.push(handArea(t));
    board.replaceChildren(...parts.filter(Boolean));
    board.classList.toggle('stale', live && !S.connected);
  }

  function handArea(t) {
    if (t.seat === null || t.seat === undefined) {
      return el('div', { class: 'hand-area watching' }, el('p', { text: 'You are watching: a spectator sees no hand.' }));
    }
    const hand = Array.isArray(t.hand) ? t.hand : [];
    const moves = movesOf(t);
    const byCard = new Map();
    const loose = [];
    for (const m of moves) {
      if (m.card && hand.includes(m.card)) {
        if (!byCard.has(m.card)) byCard.set(m.card, []);
        byCard.get(m.card).push(m);
      } else loose.push(m);
    }
    const off = S.pending || !S.connected || !isYourTurn(t);
    if (S.selected && !byCard.has(S.selected)) S.selected = null;

    const cards = el('div', { class: 'hand', 'data-test': 'hand' });
    for (const c of hand) {
      const ms = byCard.get(c);
      if (ms) {
        const one = ms.length === 1;
        const card = cardFace(c, 'button', {
          type: 'button',
          class: `playable${S.selected === c ? ' selected' : ''}`,
          'data-test': 'hand-card',
          'data-send': one ? ms[0].send : c,
          'data-choices': one ? undefined : ms.length,
          disabled: off,
          'aria-label': one ? `play ${cardName(c)}` : `play ${cardName(c)}: choose how`,
        });
        card.addEventListener('click', () => {
          if (one) play(ms[0].send);
          else {
            S.selected = S.selected === c ? null : c;
            renderBoard(t, true);
          }
        });
        cards.append(card);
      } else {
        cards.append(cardFace(c, 'span', { 'data-test': 'hand-card' }));
      }
    }
    if (hand.length === 0) cards.append(el('p', { class: 'none', text: 'No cards in your hand.' }));

    let choices = null;
    if (S.selected) {
      choices = el('div', { class: 'choices', 'data-test': 'choices' }, el('span', { text: `Play ${cardName(S.selected)}:` }));
      for (const m of byCard.get(S.selected)) {
        choices.append(moveButton(m, off, S.selected));
      }
    }
    const buttons = loose.length > 0 ? el('div', { class: 'moves' }, loose.map((m) => moveButton(m, off))) : null;
    return el('div', { class: 'hand-area' }, el('h2', { text: 'Your hand' }), cards, choices, buttons);
  }

  function moveButton(m, off, card) {
    let label = m.label ? String(m.label) : String(m.send);
    // Beside its card, `AS:11` says `11`.
    if (card && label.startsWith(`${card}:`) && label.length > card.length + 1) label = label.slice(card.length + 1);
    const b = el('button', {
      type: 'button',
      class: 'move',
      'data-test': 'move',
      'data-send': m.send,
      'data-choice': card,
      disabled: off,
      text: label,
    });
    b.addEventListener('click', () => play(m.send));
    return b;
  }

  function play(text) {
    if (S.pending || !S.connected || !S.last || !isYourTurn(S.last)) return;
    S.pending = true;
    S.selected = null;
    hide($('refused'));
    setData('yourTurn', false);
    send({ type: 'move', text });
    renderBoard(S.last, true);
  }

  // --- The replay -------------------------------------------------------------------------

  function askReplay() {
    if (!S.connected) return;
    $('replay').disabled = true;
    send({ type: 'replay' });
  }

  function onReplay(msg) {
    $('replay').disabled = false;
    const steps = Array.isArray(msg.steps) ? msg.steps : [];
    if (steps.length === 0) {
      showRefused('There is nothing to replay yet.');
      return;
    }
    S.replay = steps;
    S.step = 0;
    $('replay-bar').hidden = false;
    $('replay').hidden = true;
    body().dataset.replay = 'true';
    renderStep();
  }

  function renderStep() {
    const steps = S.replay;
    const t = steps[S.step];
    $('step').textContent = `step ${S.step + 1} of ${steps.length}`;
    $('prev').disabled = S.step === 0;
    $('next').disabled = S.step === steps.length - 1;
    const events = Array.isArray(t.events) ? t.events : [];
    $('step-events').replaceChildren(...events.map((e) => el('li', { text: eventText(e) })));
    renderBoard(t, false);
  }

  function stepBy(d) {
    if (!S.replay) return;
    S.step = Math.max(0, Math.min(S.replay.length - 1, S.step + d));
    renderStep();
  }

  function leaveReplay() {
    S.replay = null;
    $('replay-bar').hidden = true;
    delete body().dataset.replay;
    if (S.last) {
      renderBoard(S.last, true);
      renderOver(S.last);
    }
  }

  // --- Start ------------------------------------------------------------------------------

  function start() {
    setData('conn', 'closed');
    $('copy').addEventListener('click', copyInvite);
    $('replay').addEventListener('click', askReplay);
    $('prev').addEventListener('click', () => stepBy(-1));
    $('next').addEventListener('click', () => stepBy(1));
    $('back').addEventListener('click', leaveReplay);
    const m = /^\/t\/(\d+)\/?$/.exec(location.pathname);
    if (m) startTable(Number(m[1]));
    else startLobby();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
