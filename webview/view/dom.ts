/**
 * The one way the view builds elements. Children that are strings become text nodes, and attributes
 * are set one by one, so nothing from a run is ever parsed as HTML (there is no innerHTML anywhere).
 */
export type Child = Node | string | undefined | false;

export interface ElementOptions {
  readonly className?: string;
  readonly attrs?: { readonly [name: string]: string };
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) element.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function replaceChildren(parent: Element, children: readonly Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A button that calls `onClick`; `label` is text. */
export function button(label: string, onClick: () => void, options: ElementOptions = {}): HTMLButtonElement {
  const b = el('button', { ...options, attrs: { type: 'button', ...(options.attrs ?? {}) } }, label);
  b.addEventListener('click', onClick);
  return b;
}
