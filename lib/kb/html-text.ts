// HTML manuals (ORCA's, saved documentation pages) to plain text that keeps the document's headings as
// Markdown headings, so the same section splitter serves HTML, Markdown and text files. html-to-text
// parses the page (htmlparser2: unclosed tags, every named entity); only the heading format is ours.
import { compile, type FormatCallback } from 'html-to-text';

const markdownHeading: FormatCallback = (elem, walk, builder, formatOptions) => {
  const level = Number((formatOptions as { level?: number }).level ?? 1);
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addInline(`${'#'.repeat(level)} `);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const headings = [1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: 'markdownHeading', options: { level } }));

// Compiled once: the converter's selector tree is built per option set.
const convert = compile({
  wordwrap: false,
  formatters: { markdownHeading },
  selectors: [
    ...headings,
    // Links and images are noise in a search index: the link text stays, the address goes.
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    // Tables as rows of cells (option name, type, meaning), header cells not shouted.
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false, maxColumnWidth: 120 } },
    ...['head', 'script', 'style', 'noscript', 'svg', 'template'].map((selector) => ({ selector, format: 'skip' })),
  ],
});

export function htmlToText(html: string): string {
  return convert(html).replace(/\u00a0/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
}
