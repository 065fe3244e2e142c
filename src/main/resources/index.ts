/** Files shipped beside the app (resources/): where to find them in the repository, a build or a package. */
export { findResource } from './find-resource'
