/**
 * HTML for the shop's server-rendered pages: one tagged template that escapes every interpolated
 * value unless it is already {@link SafeHtml}. Attribute values must be written in double quotes.
 */

/** A fragment of HTML that is safe to insert as is (made by {@link html}). */
export class SafeHtml {
  /** The HTML text. */
  readonly value: string;

  /** @param value - HTML text already escaped */
  constructor(value: string) {
    this.value = value;
  }

  /** The HTML text. */
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for an HTML element's content or a double-quoted attribute value. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * The tagged template: `html\`<p>${text}</p>\`` escapes `text`; a {@link SafeHtml} value (another
 * `html` result) goes in as is; an array is joined; `null`, `undefined` and `false` render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}
