import { AppError } from '../../../../app/errors';

/** A key template split into literal text and column references, in order. */
export type TemplatePart = { literal: string } | { column: string };

/**
 * Split `user:{id}:{region}` into parts. `{{` and `}}` stand for literal
 * braces, so a cluster hash tag is still expressible: `{{user:{id}}}` gives
 * `{user:42}`. Syntax errors are the mapping's fault, not the input's, so
 * they are VALIDATION errors on mapping.key.
 */
export function parseKeyTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  const bad = (message: string): AppError => new AppError('VALIDATION', `key template ${JSON.stringify(template)}: ${message}`, 'mapping.key');
  while (i < template.length) {
    const c = template[i] as string;
    if (c === '{' && template[i + 1] === '{') {
      literal += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      literal += '}';
      i += 2;
    } else if (c === '{') {
      const close = template.indexOf('}', i + 1);
      if (close < 0) throw bad(`'{' at position ${i + 1} is not closed (write {{ for a literal brace)`);
      const column = template.slice(i + 1, close);
      if (column === '') throw bad(`empty column name at position ${i + 1}`);
      if (column.includes('{')) throw bad(`'{' inside a column name at position ${i + 1}`);
      if (literal !== '') parts.push({ literal });
      literal = '';
      parts.push({ column });
      i = close + 1;
    } else if (c === '}') {
      throw bad(`unmatched '}' at position ${i + 1} (write }} for a literal brace)`);
    } else {
      literal += c;
      i++;
    }
  }
  if (literal !== '') parts.push({ literal });
  return parts;
}

/** The columns a template names, each once, in order of first use. */
export function templateColumns(template: string): string[] {
  const names: string[] = [];
  for (const p of parseKeyTemplate(template)) if ('column' in p && !names.includes(p.column)) names.push(p.column);
  return names;
}
