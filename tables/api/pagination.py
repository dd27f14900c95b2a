"""The API's lists, a page at a time: `page` and `page_size` are whole numbers the schema states
(1 up; a page size of at most `max_page_size`), and anything else is a 400 naming the parameter
(the framework's own pagination quietly falls back to its default page size instead, so a
client asking for `page_size=abc` would not know it was ignored). A page past the end is 404."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


def _whole(request: Any, name: str, *, most: int | None = None) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    limit = f" from 1 to {most}" if most is not None else " from 1"
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValidationError({name: [f"{name} is a whole number{limit}, not {text!r}"]})
    if most is not None and int(text) > most:
        raise ValidationError({name: [f"{name} is a whole number{limit}, not {text}"]})
    return int(text)


class FloorPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Any) -> int:
        size = _whole(request, self.page_size_query_param, most=self.max_page_size)
        return self.page_size if size is None else size

    def get_page_number(self, request: Any, paginator: Any) -> Any:
        number = _whole(request, self.page_query_param)
        return 1 if number is None else number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters
