import { Router } from 'express';
import { csvDownloadRoute, type CsvDownloadDeps } from './csv-download';
import { REPORT_EXPORT_OPERATION, REPORT_EXPORT_PATH, reportDownload } from './report-export';
import { SHIFT_EXPORT_OPERATION, SHIFT_EXPORT_PATHS, shiftDownload } from './shift-export';

/** The operations the CSV downloads run (beside the JSON routes' ones). */
export const CSV_OPERATIONS = [SHIFT_EXPORT_OPERATION, REPORT_EXPORT_OPERATION];

/** The CSV downloads under /api/1: shifts (where/order of the JSON interface) and report rows. */
export function createCsvRouter(deps: CsvDownloadDeps): Router {
  for (const name of CSV_OPERATIONS) deps.registry.get(name);
  const router = Router();
  router.get(SHIFT_EXPORT_PATHS, csvDownloadRoute(deps, shiftDownload));
  router.get(REPORT_EXPORT_PATH, csvDownloadRoute(deps, reportDownload));
  return router;
}
