import type { AnalysisReport } from '../../../runtime/index.js';

/**
 * --llm-provider / --llm-model: a natural-language explanation added to the report's first groups
 * (the worst first) by an OpenAI-compatible endpoint; bounded in time (runtime/drift/explain), and
 * never an error: what goes wrong is the warning it returns, and the report stands without it.
 */
export async function explainReport(report: AnalysisReport, provider: string, model: string | undefined): Promise<string | undefined> {
  const { explainGroups } = await import('../../../runtime/index.js');
  const groups = report.groups.map((group) => {
    const space = group.operation.indexOf(' ');
    return {
      method: group.operation.slice(0, space),
      path: group.operation.slice(space + 1),
      operation: group.operation,
      mismatches: [{ type: group.type, field: group.field, location: group.location, message: group.message, severity: group.severity, count: group.count }],
    };
  });
  const { explanations, warning } = await explainGroups(groups, { provider, model });
  explanations.forEach((explanation, i) => {
    if (explanation !== undefined) report.groups[i].explanation = explanation;
  });
  return warning;
}
