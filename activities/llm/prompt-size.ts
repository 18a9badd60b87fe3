// The size of a conversation as the call's budget guard and a context-length failure state it: its
// characters and its tokens under the model's encoding (token-count.ts), grown with every tool result
// and re-ask. Counted, not guessed from characters: code, JSON and TeX run 2.5–3.5 characters a token,
// so chars/4 let a budget accept calls it could not pay for. Deterministic for a given text and model,
// so a replay takes the same budget decisions.
import { countTokens, encodingFor, TOKENS_PER_MESSAGE } from './token-count.js';

export class PromptSize {
  chars = 0;
  tokens = 0;

  constructor(private readonly model: string) {}

  /** One message (or tool result) more: its texts, counted with the per-message framing. */
  add(texts: readonly string[]): void {
    this.chars += texts.reduce((n, t) => n + t.length, 0);
    this.tokens += TOKENS_PER_MESSAGE + countTokens(this.model, texts);
  }

  /** "~1234 tokens (o200k_base, an approximation for this model; 4100 characters)". */
  describe(): string {
    const { encoding, own } = encodingFor(this.model);
    return `~${this.tokens} tokens (counted with ${encoding}${own ? '' : ', an approximation for this model'}; ${this.chars} characters)`;
  }
}
