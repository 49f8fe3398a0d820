/**
 * A user's name (buffer, pool) as uma-ts prints it in a table cell or a note: as it is, unless
 * it holds white space, a quote or a control or format character, then JSON-quoted with every
 * such character escaped, so a name with a newline or a terminal escape cannot forge a row or
 * a line of its own nor reach the terminal raw. (Error lines have their own escaping,
 * `oneErrorLine` in cli/main.ts.)
 */
export function shownName(name: string): string {
  if (!/[\s"\p{C}]/u.test(name) && name !== '') return name;
  // JSON.stringify escapes C0 controls and lone surrogates only: DEL, C1 controls and format
  // characters (a right-to-left override) would still reach the terminal as they are.
  // Each UTF-16 unit escaped: a private-use or unassigned character past U+FFFF is two.
  return JSON.stringify(name).replace(/[\x7f-\x9f\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/gu, (c) => {
    let escaped = '';
    for (let i = 0; i < c.length; i++) escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}
