// How big an LlmResult may get, so workflow histories stay small (Temporal: 2 MB per payload).
// The rule: the answer text travels inline up to INLINE_TEXT_BYTES; beyond that `text` is its first
// PREVIEW_CHARS characters, `textTruncated` is true and `textRef` holds the whole answer. A structured
// answer (`parsed`) travels inline up to INLINE_PARSED_BYTES of JSON, else only as `parsedRef`; its raw
// JSON text is then redundant and is always cut to a preview (with `textRef`). A result thus stays under ~16 KB.
export const INLINE_TEXT_BYTES = 12_000;
export const INLINE_PARSED_BYTES = 12_000;
export const PREVIEW_CHARS = 1_000;
/** Tool results shown in LlmResult.toolCalls (the full text is in the exchange transcript). */
export const TOOL_RESULT_PREVIEW_CHARS = 300;
