/** The planners' searches draw from the project's one seeded generator (mulberry32). */
export { seededRandom } from '../../util/random';
