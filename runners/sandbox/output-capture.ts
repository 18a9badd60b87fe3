// Bounded capture of one output stream: the first half of the budget is kept as the head, the
// last half in a tail window; everything in between is only counted. A script printing 200 MB
// costs at most `maxBytes` of memory.
export class HeadTailCapture {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  totalBytes = 0;

  constructor(maxBytes: number) {
    this.headCap = Math.floor(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.headBytes < this.headCap) {
      const take = Math.min(chunk.length, this.headCap - this.headBytes);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= this.tailCap) this.tailBytes -= this.tail.shift()!.length;
    // Copy the kept slice so the window does not pin large chunks in memory.
    if (this.tail.length > 256) this.tail = [Buffer.concat(this.tail)];
  }

  get truncated(): boolean {
    return this.totalBytes > this.headBytes + Math.min(this.tailBytes, this.tailCap);
  }

  /** Head and tail with a marker in between when bytes were dropped; the exact stream otherwise. */
  content(): Buffer {
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.tailCap));
    const headBuf = Buffer.concat(this.head);
    if (!this.truncated) return Buffer.concat([headBuf, tail]);
    const omitted = this.totalBytes - headBuf.length - tail.length;
    const marker = Buffer.from(`\n\n[physvec sandbox: ${omitted} bytes omitted of ${this.totalBytes}; head and tail kept]\n\n`);
    return Buffer.concat([headBuf, marker, tail]);
  }

  /** The last `maxBytes` of the stream as text (a split multi-byte character at the cut is dropped). */
  tailText(maxBytes: number): string {
    const all = this.truncated ? Buffer.concat(this.tail) : Buffer.concat([...this.head, ...this.tail]);
    let start = Math.max(0, all.length - maxBytes);
    while (start < all.length && start > 0 && (all[start]! & 0xc0) === 0x80) start++;
    return all.subarray(start).toString('utf8');
  }
}
