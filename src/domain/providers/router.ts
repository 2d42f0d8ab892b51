// The router (spec 4.4's seven rules, contract 8): which providers may serve a request, cheapest
// first, equal costs in registration order; and for every provider left out, why. The echo stub is
// the fallback of rule 7: a candidate only when no other enabled provider serves the modality (or
// when `echo` is the model asked), so it never answers in place of a real provider that failed.
import { costOf, drainedOf, enabledOf, modelsOf, sameModel, tierOf, unloadableReason, type Registered } from './registry.js';
import type { Modality, Tier } from './types.js';

export interface RouteRequest {
  modality: Modality;
  tier?: Tier;
  model?: string;
}

export interface Ranking {
  /** Who may serve, in the order they are tried. */
  candidates: Registered[];
  /** Every provider that may not, with the reason. */
  rejected: { provider: string; reason: string }[];
}

export function rank(entries: readonly Registered[], request: RouteRequest): Ranking {
  const { modality, tier, model } = request;
  const rejected: Ranking['rejected'] = [];
  const serves = (e: Registered) => e.adapter.modalities.includes(modality) && enabledOf(e) && !drainedOf(e);
  const realServes = entries.some((e) => e.adapter.name !== 'echo' && serves(e));
  const candidates: Registered[] = [];
  for (const entry of entries) {
    const name = entry.adapter.name;
    const reason = ((): string | undefined => {
      if (!enabledOf(entry)) return 'disabled';
      if (drainedOf(entry)) return 'drained: takes no new work';
      if (!entry.adapter.modalities.includes(modality)) return `does not serve ${modality}`;
      if (name === 'echo' && realServes && (model === undefined || !sameModel(model, 'echo')))
        return `fallback only: another provider serves ${modality}`;
      if (tier !== undefined && tierOf(entry) !== tier) return `tier ${tierOf(entry)}, ${tier} asked`;
      if (model !== undefined && !modelsOf(entry).some((m) => sameModel(m, model)))
        return unloadableReason(entry, model) ?? `does not advertise model ${model}`;
      if (entry.health.status === 'unhealthy') return `unhealthy: ${entry.health.reason ?? 'failed its last check'}`;
      return undefined;
    })();
    if (reason === undefined) candidates.push(entry);
    else rejected.push({ provider: name, reason });
  }
  candidates.sort((a, b) => costOf(a, modality) - costOf(b, modality) || a.order - b.order);
  return { candidates, rejected };
}

/** Why each candidate after the winner lost to it. */
export function lostTo(winner: Registered, other: Registered, modality: Modality): string {
  const [mine, theirs] = [costOf(other, modality), costOf(winner, modality)];
  return mine > theirs
    ? `costs more (${mine} USD > ${theirs} USD); next in line if ${winner.adapter.name} fails`
    : `same cost as ${winner.adapter.name}, later in registration order; next in line if it fails`;
}
