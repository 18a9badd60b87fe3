// Messages as the providers see them: artifact references replaced by their text.
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { LlmMessage } from '../../schemas/llm.js';
import type { ResolvedMessage } from './session.js';

export async function resolveMessages(messages: LlmMessage[], store: ArtifactStore): Promise<ResolvedMessage[]> {
  return Promise.all(
    messages.map(async (m) => {
      if (typeof m.content === 'string') return { role: m.role, text: m.content };
      const parts = await Promise.all(
        m.content.map(async (p) => {
          if ('text' in p) return p.text;
          const body = await store.getText(p.artifact);
          return p.label ? `${p.label}\n${body}` : body;
        }),
      );
      return { role: m.role, text: parts.join('\n\n') };
    }),
  );
}
