/**
 * Spec 001 §8: the admin calls' fallbacks, used only when the server's answer has no `error`
 * field, and the admin screens' own texts.
 */
export const AdminMessages = {
  getReportsFailed: 'Failed to get reports',
  getReportFailed: 'Failed to get report',
  updateReportFailed: 'Failed to update report',
  getUserFailed: 'Failed to get user details',
  suspendFailed: 'Failed to suspend user',
  unsuspendFailed: 'Failed to unsuspend user',
  deleteFailed: 'Failed to delete user',
  searchFailed: 'Failed to search users',
  getPendingPhotosFailed: 'Failed to get pending photos',
  approvePhotoFailed: 'Failed to approve photo',
  rejectPhotoFailed: 'Failed to reject photo',
  // Screens.
  dashboardLoadFailed: 'Failed to load dashboard data',
  userLoadFailed: 'Failed to load user details',
  userNotFound: 'User not found',
  photosLoadFailed: 'Failed to load photos',
  rejectionReasonRequired: 'Please provide a rejection reason',
  // Generic (spec 001 §8), for calls the spec gives no fallback of their own.
  requestFailed: 'Request failed',
} as const;
