/** How a scorer is named in one line: its score range and origin, from its definition. */
import type { ScorerDefinition } from '../../core/scorers/scorer';

export function scaleText(definition: ScorerDefinition): string {
  const scale = definition.scale;
  return scale.kind === 'bounded' ? `score 0–${scale.max}` : `a count of ${scale.unit}`;
}
