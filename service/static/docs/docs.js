// Starts Swagger UI on the service's own openapi.yaml. It lives in a file of
// its own because the page's Content-Security-Policy allows no inline script.
// URLs are relative to the page, so the reference works behind a path prefix.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "openapi.yaml",
    dom_id: "#reference",
    deepLinking: true,
    // No badge from validator.swagger.io: the page loads nothing from elsewhere.
    validatorUrl: null,
  });
});
