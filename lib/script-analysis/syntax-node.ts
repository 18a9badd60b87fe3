// A syntax-tree node as plain data, with the part of tree-sitter's Node API the analysis uses.
export interface NodeFacts {
  type: string;
  isNamed: boolean;
  isMissing: boolean;
  startIndex: number;
  endIndex: number;
  startRow: number;
  endRow: number;
}

export class SyntaxNode {
  readonly type: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly isError: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: { row: number };
  readonly endPosition: { row: number };
  readonly children: SyntaxNode[] = [];
  /** An ERROR or MISSING node at or under this one. */
  hasError = false;

  constructor(
    private readonly parsedText: string,
    readonly parent: SyntaxNode | null,
    /** The field this node fills in its parent (`name`, `parameters`, …), if any. */
    readonly field: string | null,
    facts: NodeFacts,
  ) {
    this.type = facts.type;
    this.isNamed = facts.isNamed;
    this.isMissing = facts.isMissing;
    this.isError = facts.type === 'ERROR';
    this.startIndex = facts.startIndex;
    this.endIndex = facts.endIndex;
    this.startPosition = { row: facts.startRow };
    this.endPosition = { row: facts.endRow };
  }

  get text(): string {
    return this.parsedText.slice(this.startIndex, this.endIndex);
  }
  get childCount(): number {
    return this.children.length;
  }
  get namedChildren(): SyntaxNode[] {
    return this.children.filter((c) => c.isNamed);
  }
  get firstChild(): SyntaxNode | null {
    return this.children[0] ?? null;
  }
  get lastChild(): SyntaxNode | null {
    return this.children[this.children.length - 1] ?? null;
  }
  get firstNamedChild(): SyntaxNode | null {
    return this.children.find((c) => c.isNamed) ?? null;
  }
  childForFieldName(field: string): SyntaxNode | null {
    return this.children.find((c) => c.field === field) ?? null;
  }
}
