// Input of the personal data routes: which page of an export.
import * as z from "zod";
import { page } from "../../http/fields";

export const exportQuery = z.object({ page: page() });
