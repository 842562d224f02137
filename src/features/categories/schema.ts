// Category input: POST/PUT /categories. `service_id_list` is input only and replaces the set.
import * as z from "zod";
import { customData, idList, nullableInteger, requiredText } from "../../http/fields";

const attributes = {
  title: requiredText(),
  parent_id: nullableInteger({ min: 1 }),
  custom_data: customData(),
  service_id_list: idList().optional(),
};

const categoryInput = z.object(attributes);
export const createCategoryBody = z.object({ category: categoryInput });
export const updateCategoryBody = z.object({ category: categoryInput.partial() });

export type CategoryInput = z.output<typeof categoryInput>;
export type CategoryUpdate = Partial<CategoryInput>;
