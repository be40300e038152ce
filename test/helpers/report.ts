/**
 * Figures a suite prints for the reader of `npm test`, kept within 120 columns (a terminal's or a CI log's
 * width; console.table of a tally was about 230): prose is wrapped at spaces, a table is printed one row per
 * line as `label: name count, name count, ...`, wrapped with an indent.
 */
export const REPORT_WIDTH = 120;

/** `text` wrapped at spaces to REPORT_WIDTH columns; continuation lines start with `indent`. */
export function wrap(text: string, indent = '  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (next.length > REPORT_WIDTH && line !== '' && line.trim() !== '') {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** Prints `text`, wrapped. */
export function report(text: string): void {
  console.log(wrap(text));
}

/** Prints rows of named counts, one row per line (wrapped), under `title`. */
export function reportTable(title: string, rows: Record<string, Record<string, unknown>>): void {
  const lines = Object.entries(rows).map(([label, cells]) =>
    wrap(
      `  ${label}: ${Object.entries(cells)
        .map(([name, value]) => `${name} ${String(value)}`)
        .join(', ')}`,
      '      ',
    ),
  );
  console.log([wrap(title), ...lines].join('\n'));
}
