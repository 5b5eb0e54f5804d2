/**
 * A glob as Python's `fnmatch` reads it (case-sensitive, as on POSIX): `*` any text, `?` one
 * character, `[abc]` / `[a-z]` one of a set, `[!abc]` one not in it; a `[` without its `]` is itself.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob.charAt(i);
    if (char === '*') source += '[^]*';
    else if (char === '?') source += '[^]';
    else if (char === '[') {
      let end = i + 1;
      if (glob.charAt(end) === '!') end += 1;
      if (glob.charAt(end) === ']') end += 1;
      while (end < glob.length && glob.charAt(end) !== ']') end += 1;
      if (end >= glob.length) {
        source += '\\[';
        continue;
      }
      let set = glob
        .slice(i + 1, end)
        .replaceAll('\\', '\\\\')
        .replace(/[[\]]/g, '\\$&');
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      else if (set.startsWith('^')) set = `\\${set}`;
      source += `[${set}]`;
      i = end;
    } else source += escapeLiteral(char);
  }
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    // A set Python would read leniently (`[z-a]`): match the glob as plain text.
    return new RegExp(`^${escapeLiteral(glob)}$`, 'u');
  }
}

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
