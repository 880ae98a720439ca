import { childElements, firstChild, path, textOf, type XmlElement } from './xml';

/*
 * Office Math (OMML, the m: namespace of DOCX) to LaTeX.
 *
 * mammoth ignores equations entirely, so the DOCX extractor converts each m:oMath element here
 * and puts the LaTeX back into the document as inline math, or a formula block for a display
 * equation (m:oMathPara). The structures Word produces are covered: runs, fractions, scripts,
 * radicals, n-ary operators, delimiters, functions, limits, group characters, accents, bars,
 * boxes, equation arrays and matrices. Unknown elements contribute their content.
 *
 * The LaTeX never contains "<" directly followed by a letter or "|" (the renderer writes math as
 * it is, where these could open raw HTML or split a table cell): "<" is written with spaces
 * around it and "|" as \vert.
 */

const SYMBOLS: Record<string, string> = {
  // Greek
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\varepsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi', ο: 'o',
  π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon',
  φ: '\\varphi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega',
  Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon',
  Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  // Operators and relations
  '∞': '\\infty', '±': '\\pm', '∓': '\\mp', '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot', '∙': '\\cdot',
  '∗': '\\ast', '∘': '\\circ', '−': '-', '–': '-', '—': '-', '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx',
  '≡': '\\equiv', '∼': '\\sim', '≃': '\\simeq', '≅': '\\cong', '∝': '\\propto', '≪': '\\ll', '≫': '\\gg',
  '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '↑': '\\uparrow', '↓': '\\downarrow',
  '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset', '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq',
  '∪': '\\cup', '∩': '\\cap', '∅': '\\emptyset', '∀': '\\forall', '∃': '\\exists', '∄': '\\nexists', '¬': '\\neg',
  '∧': '\\wedge', '∨': '\\vee', '⊕': '\\oplus', '⊗': '\\otimes', '⊥': '\\perp', '∥': '\\parallel', '∠': '\\angle',
  '∂': '\\partial', '∇': '\\nabla', '√': '\\surd', 'ℏ': '\\hbar', 'ℓ': '\\ell', 'ℜ': '\\Re', 'ℑ': '\\Im', 'ℵ': '\\aleph',
  '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots', '°': '^{\\circ}', '′': "'", '″': "''", '‴': "'''",
  ℝ: '\\mathbb{R}', ℕ: '\\mathbb{N}', ℤ: '\\mathbb{Z}', ℚ: '\\mathbb{Q}', ℂ: '\\mathbb{C}',
  '⟨': '\\langle', '⟩': '\\rangle', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil', '‖': '\\Vert',
  '|': '\\vert', '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint',
  '{': '\\{', '}': '\\}', '#': '\\#', $: '\\$', '%': '\\%', '&': '\\&', _: '\\_', '~': '\\sim', '^': '\\hat{}',
  '\\': '\\backslash', '<': ' < ', '>': ' > ', '`': "'", '\u00a0': ' ', '\u2061': '', '\u2062': '', '\u2063': '', '\u200b': '',
};

const BIG_OPERATORS: Record<string, string> = {
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint',
  '∯': '\\oiint', '∰': '\\oiiint', '⋀': '\\bigwedge', '⋁': '\\bigvee', '⋂': '\\bigcap', '⋃': '\\bigcup',
  '⨀': '\\bigodot', '⨁': '\\bigoplus', '⨂': '\\bigotimes', '⨄': '\\biguplus', '⨆': '\\bigsqcup',
};

const ACCENTS: Record<string, string> = {
  '\u0300': '\\grave', '\u0301': '\\acute', '\u0302': '\\hat', '\u0303': '\\tilde', '\u0304': '\\bar',
  '\u0305': '\\overline', '\u0306': '\\breve', '\u0307': '\\dot', '\u0308': '\\ddot', '\u030c': '\\check',
  '\u20d7': '\\vec', '\u20d6': '\\overleftarrow', '\u20e1': '\\overleftrightarrow', '\u20db': '\\dddot',
};

const GROUP_CHARS: Record<string, string> = {
  '⏟': '\\underbrace', '⏞': '\\overbrace', '⏜': '\\overparen', '⏝': '\\underparen', '⎴': '\\overbracket', '⎵': '\\underbracket',
};

const DELIMITERS: Record<string, string> = {
  '(': '(', ')': ')', '[': '[', ']': ']', '{': '\\{', '}': '\\}', '|': '\\vert', '‖': '\\Vert', '⟨': '\\langle',
  '⟩': '\\rangle', '〈': '\\langle', '〉': '\\rangle', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil',
  '<': '\\langle', '>': '\\rangle', '/': '/',
};

const NAMED_FUNCTIONS = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'log', 'ln',
  'lg', 'exp', 'det', 'dim', 'gcd', 'deg', 'hom', 'ker', 'arg', 'inf', 'sup', 'lim', 'liminf', 'limsup', 'max', 'min', 'Pr',
]);

function symbol(ch: string): string {
  const mapped = SYMBOLS[ch];
  if (mapped !== undefined) return mapped.startsWith('\\') && /[a-zA-Z]$/.test(mapped) ? `${mapped} ` : mapped;
  const cp = ch.codePointAt(0) ?? 0;
  // Mathematical alphanumerics (𝑥, 𝜋, 𝐀…) and the italic h: their NFKC form is the plain letter.
  if ((cp >= 0x1d400 && cp <= 0x1d7ff) || ch === 'ℎ') {
    const plain = ch.normalize('NFKC');
    if (plain !== ch) return [...plain].map(symbol).join('');
  }
  return ch;
}

/** Marks a space typed in the equation (as opposed to spacing added around commands). */
const TEXT_SPACE = '\uE000';

function runText(text: string): string {
  let out = '';
  for (const ch of text) out += ch === ' ' || ch === '\u00a0' ? TEXT_SPACE : symbol(ch);
  return out;
}

/** Math mode ignores spaces: a typed space between two words is written "\ ", others collapse. */
function finishLatex(latex: string): string {
  return latex
    .replace(/(?<=[\p{L}\p{N}])\uE000+(?=[\p{L}\p{N}])/gu, '\\ ')
    .replace(/\uE000/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function isOn(el: XmlElement | undefined): boolean {
  if (!el) return false;
  const v = el.attrs.val;
  return v === undefined || v === '1' || v === 'on' || v === 'true';
}

function prop(el: XmlElement, prName: string, key: string): string | undefined {
  return path(el, prName, key)?.attrs.val;
}

/** Content of the element's children, properties (…Pr) excluded. */
function inner(el: XmlElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const child of childElements(el)) if (!child.name.endsWith('Pr')) out += convert(child);
  return out;
}

function part(el: XmlElement, name: string): string {
  return inner(firstChild(el, name)).replace(/^[\s\uE000]+|[\s\uE000]+$/g, '');
}

/** Wraps a script base in braces unless it is one symbol or one \left…\right group. */
function base(text: string): string {
  const t = text.trim();
  if (t === '') return '{}';
  if ([...t].length === 1 || /^\\[a-zA-Z]+$/.test(t)) return t;
  if (t.startsWith('\\left') && (t.match(/\\left/g) ?? []).length === 1 && /\\right(\S|\\[a-zA-Z]+)$/.test(t)) return t;
  if (/^\{[^{}]*\}$/.test(t)) return t;
  return `{${t}}`;
}

function delimiter(ch: string | undefined, fallback: string): string {
  if (ch === undefined) return fallback;
  if (ch === '') return '.';
  return DELIMITERS[ch] ?? runText(ch).trim();
}

function operatorName(text: string): string | undefined {
  const word = text.trim();
  if (!/^[A-Za-z]+$/.test(word)) return undefined;
  return NAMED_FUNCTIONS.has(word) ? `\\${word}` : `\\operatorname{${word}}`;
}

function convert(el: XmlElement): string {
  switch (el.name) {
    case 'r': {
      const text = childElements(el, 't').map((t) => textOf(t)).join('');
      return runText(text);
    }
    case 'f': {
      const num = part(el, 'num');
      const den = part(el, 'den');
      switch (prop(el, 'fPr', 'type')) {
        case 'noBar':
          return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
        case 'lin':
          return `${base(num)}/${base(den)}`;
        case 'skw':
          return `^{${num}}/_{${den}}`;
        default:
          return `\\frac{${num}}{${den}}`;
      }
    }
    case 'sSup':
      return `${base(part(el, 'e'))}^{${part(el, 'sup')}}`;
    case 'sSub':
      return `${base(part(el, 'e'))}_{${part(el, 'sub')}}`;
    case 'sSubSup':
      return `${base(part(el, 'e'))}_{${part(el, 'sub')}}^{${part(el, 'sup')}}`;
    case 'sPre': {
      const sub = part(el, 'sub');
      const sup = part(el, 'sup');
      return `{}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''}${base(part(el, 'e'))}`;
    }
    case 'rad': {
      const degree = part(el, 'deg');
      const hidden = isOn(path(el, 'radPr', 'degHide'));
      return !hidden && degree ? `\\sqrt[${degree}]{${part(el, 'e')}}` : `\\sqrt{${part(el, 'e')}}`;
    }
    case 'nary': {
      const chr = prop(el, 'naryPr', 'chr');
      const op = chr === undefined ? '\\int' : (BIG_OPERATORS[chr] ?? runText(chr).trim());
      const sub = isOn(path(el, 'naryPr', 'subHide')) ? '' : part(el, 'sub');
      const sup = isOn(path(el, 'naryPr', 'supHide')) ? '' : part(el, 'sup');
      return `${op}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''} ${part(el, 'e')}`;
    }
    case 'd': {
      const pr = firstChild(el, 'dPr');
      const open = delimiter(path(pr, 'begChr')?.attrs.val, '(');
      const close = delimiter(path(pr, 'endChr')?.attrs.val, ')');
      const sepChr = path(pr, 'sepChr')?.attrs.val;
      const separator = sepChr === undefined ? '\\vert ' : `${delimiter(sepChr, '\\vert')} `;
      const items = childElements(el, 'e').map((e) => inner(e).trim());
      return `\\left${open}${items.join(` ${separator}`)}\\right${close}`;
    }
    case 'func': {
      const nameLatex = part(el, 'fName');
      const name = operatorName(nameLatex) ?? nameLatex;
      return `${name}{${part(el, 'e')}}`;
    }
    case 'limLow': {
      const body = part(el, 'e');
      const limit = part(el, 'lim');
      const name = operatorName(body);
      if (name) return `${name}_{${limit}}`;
      if (body.startsWith('\\underbrace')) return `${body}_{${limit}}`;
      return `\\underset{${limit}}{${body}}`;
    }
    case 'limUpp': {
      const body = part(el, 'e');
      const limit = part(el, 'lim');
      if (body.startsWith('\\overbrace')) return `${body}^{${limit}}`;
      return `\\overset{${limit}}{${body}}`;
    }
    case 'groupChr': {
      const chr = prop(el, 'groupChrPr', 'chr') ?? '⏟';
      const pos = prop(el, 'groupChrPr', 'pos') ?? 'bot';
      const body = part(el, 'e');
      const command = GROUP_CHARS[chr];
      if (command) return `${command}{${body}}`;
      return pos === 'top' ? `\\overset{${runText(chr).trim()}}{${body}}` : `\\underset{${runText(chr).trim()}}{${body}}`;
    }
    case 'acc': {
      const chr = prop(el, 'accPr', 'chr') ?? '\u0302';
      const command = ACCENTS[chr];
      const body = part(el, 'e');
      return command ? `${command}{${body}}` : `\\overset{${runText(chr).trim()}}{${body}}`;
    }
    case 'bar': {
      const pos = prop(el, 'barPr', 'pos') ?? 'bot';
      return pos === 'top' ? `\\overline{${part(el, 'e')}}` : `\\underline{${part(el, 'e')}}`;
    }
    case 'borderBox':
      return `\\boxed{${part(el, 'e')}}`;
    case 'eqArr': {
      const rows = childElements(el, 'e').map((e) => inner(e).trim());
      return rows.length === 1 ? rows[0] : `\\begin{array}{l}${rows.join(' \\\\ ')}\\end{array}`;
    }
    case 'm': {
      const rows = childElements(el, 'mr').map((row) =>
        childElements(row, 'e')
          .map((e) => inner(e).trim())
          .join(' & '),
      );
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    default:
      return inner(el);
  }
}

/** LaTeX for one m:oMath (or m:oMathPara) element. */
export function ommlToLatex(el: XmlElement): string {
  const parts = el.name === 'oMathPara' ? childElements(el, 'oMath').map(inner) : [inner(el)];
  return parts
    .map(finishLatex)
    .filter(Boolean)
    .join(' \\\\ ');
}
