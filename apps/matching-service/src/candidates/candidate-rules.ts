import { DEFAULT_PREFERENCES } from '@mate/contracts';
import { pairBlockedSql } from '@mate/server-kit';

/**
 * The hard rules of matching (issue 8) as one SQL predicate over two candidate rows: `v` (the
 * member choosing) and `c` (the member shown), checked in both directions. The candidate query
 * and the like's check for one member both use it, so the rules live here only.
 *
 * - `c` is suggestible (verified, onboarded, with a photo, not suspended or deleted) and not `v`.
 * - Ages: each member's age is in the other's range; an unknown age passes only the default
 *   range (18–99), i.e. someone who narrowed the range wants known ages.
 * - Genders: each member's gender (interested-in reading) is in the other's list; an empty list
 *   is everyone; an unknown gender fails a non-empty list.
 * - Distance (issue 25): between city centres, within both members' maximum. A member whose place
 *   is unknown is never paired with one whose place is known: every member has a maximum distance
 *   (1–200 km, there is no "no limit"), and it could not be kept. Two members of unknown place may
 *   meet, since neither limit can be measured (README, "Members of unknown place"); profile-service
 *   tells them why members with a place do not see them.
 * - Filter preferences of spec 001 §3, both ways: education, relationship goals (any overlap),
 *   smoking, drinking, exercise, pets (the value is in the list), required interests (all held),
 *   height range. An empty list (or no bound) means all; an unanswered field fails a non-empty
 *   filter on it.
 * - Blocks (issue 10): never a pair of whom either blocks the other (the kit's pair projection,
 *   `kit_pair`, kept from safety's pair events; one row per pair, ids ascending, so one
 *   primary-key probe covers both directions).
 */
export function mutualRulesSql(v: string, c: string): string {
  return `${c}.suggestible AND ${c}.user_id <> ${v}.user_id
    AND ${ageFitsSql(c, v)} AND ${ageFitsSql(v, c)}
    AND ${genderFitsSql(c, v)} AND ${genderFitsSql(v, c)}
    AND ${distanceFitsSql(v, c)}
    AND ${filtersFitSql(c, v)} AND ${filtersFitSql(v, c)}
    AND NOT ${blockedPairSql(v, c)}`;
}

/** Both places unknown, or both known and within both members' maximum distance. */
export function distanceFitsSql(v: string, c: string): string {
  return `((${v}.lat IS NULL AND ${c}.lat IS NULL)
      OR coalesce(great_circle_km(${v}.lat, ${v}.lng, ${c}.lat, ${c}.lng) <= least(${v}.max_distance, ${c}.max_distance), false))`;
}

/** Either of the two members blocks the other (the kit's `kit_pair`: one row per pair, ids ascending). */
export function blockedPairSql(x: string, y: string): string {
  return pairBlockedSql(`${x}.user_id`, `${y}.user_id`);
}

/** `member`'s age is in `chooser`'s range (unknown ages pass the default range only). */
function ageFitsSql(member: string, chooser: string): string {
  return `(${member}.age BETWEEN ${chooser}.min_age AND ${chooser}.max_age
    OR (${member}.age IS NULL AND ${isDefaultAgeRangeSql(chooser)}))`;
}

/** `chooser` kept the default age range (18–99): the one range an unknown age passes. */
export function isDefaultAgeRangeSql(chooser: string): string {
  return `(${chooser}.min_age = ${DEFAULT_PREFERENCES.minAge} AND ${chooser}.max_age = ${DEFAULT_PREFERENCES.maxAge})`;
}

function genderFitsSql(member: string, chooser: string): string {
  return `(cardinality(${chooser}.gender_preference) = 0 OR ${member}.gender_group = ANY (${chooser}.gender_preference))`;
}

/** One list filter of `chooser` on `member`'s value: empty list = all, no value = fails. */
function listFitsSql(member: string, chooser: string, list: string, value: string): string {
  return `(cardinality(${chooser}.${list}) = 0 OR ${member}.${value} = ANY (${chooser}.${list}))`;
}

/** Every filter preference of spec 001 §3 that `chooser` set, applied to `member`. */
function filtersFitSql(member: string, chooser: string): string {
  return `${listFitsSql(member, chooser, 'education_preference', 'education_value')}
    AND (cardinality(${chooser}.relationship_goal_preference) = 0
      OR ${member}.goals && ${chooser}.relationship_goal_preference)
    AND ${listFitsSql(member, chooser, 'smoking_preference', 'smoking')}
    AND ${listFitsSql(member, chooser, 'drinking_preference', 'drinking')}
    AND ${listFitsSql(member, chooser, 'exercise_preference', 'exercise')}
    AND ${listFitsSql(member, chooser, 'pets_preference', 'pets')}
    AND ${member}.interests @> ${chooser}.required_interests
    AND (${chooser}.min_height IS NULL OR ${member}.height >= ${chooser}.min_height)
    AND (${chooser}.max_height IS NULL OR ${member}.height <= ${chooser}.max_height)`;
}
