import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { EvalCase, Json } from '../../../case';
import { readCount, readText } from '../../../judge/answerParser';
import { error, inconclusive, unsupported } from '../../../result';
import { traceOf } from '../../../trace/traceOf';
import type { SkillStep } from '../../../trace/trace';
import schema from '../../../../schemas/scorers/skills_best_practices.schema.json';
import { type OptionIssue, type OptionsOf, prepared, resolveOptionPath, type ScorerContext } from '../../scorer';
import { percentVerdict } from '../../support/sqlRows';
import { askJudge } from './judgeSupport';
import { readBoundedText } from '../../../text/boundedRead';
import { defineJudgeScorer } from './defineJudgeScorer';

/** EvalBench's sandbox folders, looked for (in this order) when `skills_dir` is unset. */
export const SANDBOX_SKILL_DIRS = [
  '.venv/fake_home_claude/.claude/skills',
  '.venv/fake_home_codex/.codex/skills',
  '.venv/fake_home/.gemini/skills',
] as const;
const CATEGORIES = ['metadata_quality', 'conciseness', 'progressive_disclosure', 'clarity', 'content_quality'] as const;

/**
 * EvalBench's `skills_best_practices`: each activated skill's SKILL.md judged 0–100 (five categories
 * of 20), one call per skill; the score is the mean. A SKILL.md that is not found scores 0 for its
 * skill, as in EvalBench. No activated skill is `inconclusive` (EvalBench: 100, with no judging).
 */
export const skillsBestPractices = defineJudgeScorer('skills_best_practices', {
  judgeCalls: (_options, evalCase) => (evalCase === undefined ? 1 : activatedSkills(evalCase).length),
  schema,
  // No skills folder yet (EvalBench makes its sandbox during the agent run): the config loads, and a
  // case that activated a skill is unsupported with the reason, rather than 0 for every skill.
  notices: (options, context): OptionIssue[] =>
    skillsDirOf(options, context) === undefined
      ? [{ path: [], message: `${NO_SKILLS_DIR} (until then, cases that activated a skill are unsupported)` }]
      : [],
  prepare(judge, options, context) {
    const skillsDir = skillsDirOf(options, context);
    const noSkillsDir = NO_SKILLS_DIR;
    return prepared({
      async score(input, signal) {
        const lookup = traceOf(input.case);
        if (!lookup.ok) return unsupported(lookup.reason);
        const skills = activatedSkills(input.case);
        if (skills.length === 0)
          return inconclusive(
            'the trace activated no skill, so there is no SKILL.md to judge (EvalBench scores this 100)',
          );
        if (skillsDir === undefined) return unsupported(noSkillsDir);
        const perSkill: { [key: string]: Json }[] = [];
        for (const skill of skills) {
          const file = skillFile(skillsDir, skill);
          if (file === undefined) {
            perSkill.push({ skill, score: 0, found: false });
            continue;
          }
          const skillMd = await readBoundedText(file, 'prompt');
          if (!skillMd.ok) return error(`skill ${skill}: cannot read ${file}: ${skillMd.reason}`);
          const asked = await askJudge(
            judge,
            'skills_best_practices',
            { skill_name: skill, skill_md: skillMd.text },
            signal,
          );
          if (!asked.ok) return { ...asked.verdict, reason: `skill ${skill}: ${asked.verdict.reason}` };
          const score = readCount(asked.object, 'score', 0, 100);
          if (!score.ok) return error(`skill ${skill}: ${score.reason}`, asked.details);
          const categories = Object.fromEntries(
            CATEGORIES.flatMap((c) => (asked.object[c] === undefined ? [] : [[c, asked.object[c] as Json]])),
          );
          const summary = readText(asked.object, 'summary');
          perSkill.push({
            skill,
            score: score.value,
            found: true,
            ...categories,
            ...(summary === undefined ? {} : { summary }),
            judge_attempts: asked.details['judge_attempts'] ?? null,
          });
        }
        const mean =
          perSkill.reduce((sum, s) => sum + (typeof s['score'] === 'number' ? s['score'] : 0), 0) / perSkill.length;
        const missing = perSkill.filter((s) => s['found'] === false).map((s) => String(s['skill']));
        const note =
          missing.length === 0 ? '' : `; no SKILL.md found for ${missing.join(', ')} in ${skillsDir} (scored 0)`;
        return percentVerdict(
          Math.round(mean * 100) / 100,
          `mean best-practices score over ${perSkill.length} skill${perSkill.length === 1 ? '' : 's'}${note}`,
          { judge_model: judge.config.model, skills: perSkill },
        );
      },
    });
  },
});

const NO_SKILLS_DIR = `no skills folder: none of EvalBench's sandbox folders (${SANDBOX_SKILL_DIRS.join(', ')}) exists, and skills_dir is not set; set skills_dir to the folder that holds <skill>/SKILL.md`;

/** The folder of `<skill>/SKILL.md`: skills_dir, else the first of EvalBench's sandbox folders that exists. */
function skillsDirOf(options: OptionsOf<'skills_best_practices'>, context: ScorerContext): string | undefined {
  const exists = context.fileExists ?? existsSync;
  // EvalBench's sandbox folders are under the folder it runs in (its repository root), as other paths are.
  if (options.skills_dir !== undefined)
    return isAbsolute(options.skills_dir) ? options.skills_dir : resolveOptionPath(context, options.skills_dir);
  return SANDBOX_SKILL_DIRS.map((d) => resolveOptionPath(context, d)).find((d) => exists(d));
}

/** The distinct skills the trace activated, in the order first activated. */
function activatedSkills(evalCase: EvalCase): string[] {
  const lookup = traceOf(evalCase);
  if (!lookup.ok) return [];
  return [...new Set(lookup.trace.steps.filter((s): s is SkillStep => s.kind === 'skill').map((s) => s.name))];
}

/** `<dir>/<skill>/SKILL.md`, else a folder whose name matches case-insensitively (as EvalBench looks). */
function skillFile(dir: string, skill: string): string | undefined {
  // A name from the trace never leads outside the skills folder.
  if (skill === '' || skill === '.' || skill === '..' || /[\\/]/.test(skill)) return undefined;
  const direct = join(dir, skill, 'SKILL.md');
  if (existsSync(direct)) return direct;
  try {
    const folder = readdirSync(dir).find((entry) => entry.toLowerCase() === skill.toLowerCase());
    const candidate = folder === undefined ? undefined : join(dir, folder, 'SKILL.md');
    return candidate !== undefined && existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}
