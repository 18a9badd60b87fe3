// The element-function structure every script is written in (paper Sec. II), as the prompts state it:
// the Author writes in it and both verifiers' repairs must keep to it.
import { FIGURE_FILE, RESULT_MARKER } from '../../schemas/script-markers.js';

export const STRUCTURE_RULES = [
  'Write the script in the element-function structure:',
  '- element functions named by prefix: site_, lattice_, hamiltonian_, initialstate_, effector_, observable_, item_, plot_; each does one thing and takes everything it needs as parameters;',
  '- run_<name> functions call element functions in order and return the data;',
  `- main() sets the parameters, calls run_/item_ functions, writes ${FIGURE_FILE} and prints key numbers as \`${RESULT_MARKER} <json>\` lines;`,
  '- Python ends with `if __name__ == "__main__": main()`; Julia ends with `main()`.',
  'Scale the system down so the whole script runs in a few minutes on 2 CPU cores; say which parameters you scaled.',
].join('\n');
