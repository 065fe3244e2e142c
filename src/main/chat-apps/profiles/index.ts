/** Chat app profiles (docs/desktop.md, "Chat app profiles"): the schema, where the files are, and where a region is on screen. */
export {
  AppPlatformSchema,
  ChatAppProfileSchema,
  LengthSchema,
  RegionSchema,
  profileFor,
  profileProblems,
  titleMatches,
  type AppPlatform,
  type ChatAppProfile,
  type Length,
  type Region
} from './profile'
export { builtinProfilesDir, loadChatApps, readProfileFile, userProfilesDir, type ChatAppCatalog, type LoadedProfile, type ProfileProblem, type ProfileSource } from './catalog'
export { regionRect } from './regions'
