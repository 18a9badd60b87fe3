// The one template engine of the HTML reports (Eta): every `<%= %>` is HTML-escaped (& < > " ' all
// five), so text written by a model, a traceback or a script cannot become markup; `<%~ %>` (raw) is
// used only for our own partials and the matplotlib SVGs we sanitise. null/undefined print as nothing.
import path from 'node:path';
import { Eta } from 'eta';
import { repoRoot } from '../paths.js';

export const TEMPLATE_DIR = path.join(repoRoot, 'lib', 'reports', 'templates');

const eta = new Eta({
  views: TEMPLATE_DIR,
  cache: true,
  autoEscape: true,
  autoFilter: true,
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- templates print strings and numbers; String() is Eta's own default filter
  filterFunction: (v: unknown) => (v == null ? '' : String(v)),
});

/** Renders `templates/<name>.eta` with `it` bound to the page's view. */
export function renderTemplate(name: 'evidence' | 'campaign' | 'index', view: object): string {
  return eta.render(name, view);
}
